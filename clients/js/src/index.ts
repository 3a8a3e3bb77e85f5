// tgfake for Node: a typed client of the stand's sim API (the person, the world, server-held waits, faults, the
// clock, sessions, the scripted model), a stand started from PATH, and a bot under test as a child process.
// The Vitest and Jest helpers are `tgfake/vitest` and `tgfake/jest`.
export { TgfakeClient, TgfakeAssertionError } from "./client.js";
export type { Account, Acting, ClientOptions, FileOptions, ReplyOptions, WaitCallOptions, Writing } from "./client.js";
export { Http, type AnswerOf, type Raw, type Request } from "./http.js";
export { BotProcess, botEnvironment, freePort, startStand, type BotOptions, type Stand } from "./processes.js";
export { harness, session, startBot, tgfake, type HarnessOptions, type StartBotOptions } from "./harness.js";
export * from "./values.js";
export type * as sim from "./generated/sim.js";
export type { SimPaths } from "./generated/sim.js";
