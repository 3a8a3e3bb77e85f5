// Jest's globalSetup: one `tgfake` for the whole run, started from PATH on a free port unless TGFAKE_URL names a
// stand; its origin reaches the workers as TGFAKE_URL. Stopped by tgfake/jest/global-teardown.
import { startStand, type Stand } from "./processes.js";

export const STAND_KEY = Symbol.for("tgfake.jest.stand");

export default async function globalSetup(): Promise<void> {
  if (process.env.TGFAKE_URL) return;
  const stand = await startStand({ args: (process.env.TGFAKE_ARGS ?? "").split(/\s+/).filter(Boolean) });
  (globalThis as unknown as Record<symbol, Stand>)[STAND_KEY] = stand;
  process.env.TGFAKE_URL = stand.url;
}
