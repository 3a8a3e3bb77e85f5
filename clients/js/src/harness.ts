// The per-test life the Vitest and Jest helpers share: a stand for the run (TGFAKE_URL, or tgfake started from
// PATH), a session of its own for each test (parallel workers cannot see each other), the bots a test starts, and
// the failure report (the bots' output, the transcript, the outbox). Framework-free: vitest.ts and jest.ts wire it
// to their hooks. Its state lives on globalThis, so the setup file and the test file share it even when a runner
// loads the package twice (ESM and CJS, or inlined and external).
import { TgfakeClient } from "./client.js";
import type { SessionAnswer } from "./generated/sim.js";
import { BotProcess, botEnvironment, startStand, type BotOptions, type Stand } from "./processes.js";
import { DEFAULT_READY_TIMEOUT } from "./values.js";

const EVIDENCE_MARK = "--- outbox (getUpdates omitted) ---";

export interface HarnessOptions {
  /** The stand's origin (default: TGFAKE_URL, else tgfake is started from PATH for this file's tests). */
  url?: string;
  /** Flags for a tgfake started here (`--llm` is always given). */
  args?: string[];
  /** How long waits last unless told otherwise, in ms (10 s). */
  timeout?: number;
  /** How long a bot has to make its first Bot API call, in ms (60 s). */
  readyTimeout?: number;
}

export interface StartBotOptions extends BotOptions {
  /** In ms (default: the harness's readyTimeout). */
  readyTimeout?: number;
}

class Harness {
  private stand: Stand | undefined;
  private root: TgfakeClient | undefined;
  private session: SessionAnswer | undefined;
  private current: TgfakeClient | undefined;
  private bots: BotProcess[] = [];

  constructor(private options: HarnessOptions = {}) {}

  configure(options: HarnessOptions): void {
    this.options = { ...this.options, ...options };
  }

  /** Once per test file: the stand (started here when neither `url` nor TGFAKE_URL names one). */
  async setup(): Promise<void> {
    if (this.root) return;
    let url = this.options.url ?? process.env.TGFAKE_URL;
    if (!url) {
      this.stand = await startStand({ args: this.options.args });
      url = this.stand.url;
    }
    this.root = new TgfakeClient(url, { timeout: this.options.timeout });
  }

  async teardown(): Promise<void> {
    await this.stand?.stop();
    this.stand = undefined;
    this.root = undefined;
  }

  /** Before each test: a session of its own and a client on it. */
  async begin(): Promise<void> {
    if (!this.root) await this.setup();
    this.session = await this.root!.openSession();
    this.current = new TgfakeClient(this.session.url, { timeout: this.options.timeout });
    this.bots = [];
  }

  /** After each test: its bots stopped, its session ended (held polls answer at once). */
  async end(): Promise<void> {
    const bots = this.bots;
    this.bots = [];
    const stopping = bots.map((b) => b.stop());
    if (this.session) await this.root?.endSession(this.session.id).catch(() => undefined);
    await Promise.all(stopping);
    this.session = undefined;
    this.current = undefined;
  }

  /** The test's client (its session's). */
  get client(): TgfakeClient {
    if (!this.current) throw new Error("no tgfake session: call setupTgfake() in a setup file, and use the client inside a test");
    return this.current;
  }

  /** The session the test runs in (its `url`, `model_url`...). */
  get sessionInfo(): SessionAnswer {
    if (!this.session) throw new Error("no tgfake session: use it inside a test");
    return this.session;
  }

  /** Run the bot with TELEGRAM_API, BOT_TOKEN, OPENAI_BASE_URL and OPENAI_API_KEY for the test's session (and
   * `env`), until its own first Bot API call; it is stopped after the test. */
  async startBot(command: string | string[], opts: StartBotOptions = {}): Promise<BotProcess> {
    const session = this.sessionInfo;
    const env = { ...botEnvironment(session.url, { modelUrl: session.model_url }), ...(opts.env ?? {}) };
    const bot = new BotProcess(command, { ...opts, env });
    const since = await this.client.count();
    const alone = this.bots.length === 0; // a held getUpdates in the session can only be this bot's
    this.bots.push(bot.start());
    const timeout = opts.readyTimeout ?? this.options.readyTimeout ?? DEFAULT_READY_TIMEOUT;
    await bot.waitReady(this.client, { since, timeout, polling: alone });
    return bot;
  }

  /** What a failing test prints: each bot's output, the transcript of the last chat, the outbox. */
  async report(failure = ""): Promise<string> {
    const parts = this.bots.map((b) => `--- output of ${b.name} ---\n${b.output().trimEnd() || "(none)"}`);
    const shown = failure.includes(EVIDENCE_MARK); // a failed wait already carries the transcript and the outbox
    if (this.current && !shown) parts.push(await this.current.evidence());
    return parts.join("\n");
  }
}

const KEY = Symbol.for("tgfake.harness");

/** The one harness of this process. */
export function harness(options?: HarnessOptions): Harness {
  const store = globalThis as unknown as Record<symbol, Harness | undefined>;
  const h = (store[KEY] ??= new Harness(options));
  if (options) h.configure(options);
  return h;
}

/** The running test's client, as an object whose methods reach it: `tgfake.send("/start")`. */
export const tgfake: TgfakeClient = new Proxy({} as TgfakeClient, {
  get(_target, name) {
    const client = harness().client;
    const value = Reflect.get(client, name, client) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
  set(_target, name, value) {
    return Reflect.set(harness().client, name, value);
  },
});

/** Start a bot for the running test (see {@link Harness.startBot}). */
export function startBot(command: string | string[], opts: StartBotOptions = {}): Promise<BotProcess> {
  return harness().startBot(command, opts);
}

/** The running test's session (`url`, `bot_api_url`, `model_url`...). */
export function session(): SessionAnswer {
  return harness().sessionInfo;
}

export type { Harness };

/** How long a hook may take: a stand's start and a session's end, in ms. */
export const HOOK_TIMEOUT = 90_000;
