// Jest's globalTeardown: stops the stand tgfake/jest/global-setup started (none when TGFAKE_URL named one).
import { STAND_KEY } from "./jest-global-setup.js";
import type { Stand } from "./processes.js";

export default async function globalTeardown(): Promise<void> {
  const store = globalThis as unknown as Record<symbol, Stand | undefined>;
  const stand = store[STAND_KEY];
  if (!stand) return;
  store[STAND_KEY] = undefined;
  delete process.env.TGFAKE_URL;
  await stand.stop();
}
