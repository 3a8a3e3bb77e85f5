// Vitest's globalSetup: one `tgfake` for the whole run, started from PATH on a free port unless TGFAKE_URL names a
// stand; its origin reaches the workers as TGFAKE_URL, and it stops after the run.
import { startStand } from "./processes.js";

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.TGFAKE_URL) return async () => {};
  const stand = await startStand({ args: (process.env.TGFAKE_ARGS ?? "").split(/\s+/).filter(Boolean) });
  process.env.TGFAKE_URL = stand.url;
  return async () => {
    delete process.env.TGFAKE_URL;
    await stand.stop();
  };
}
