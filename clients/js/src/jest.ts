// Jest: `setupTgfake()` in a setup file (jest.config's `setupFilesAfterEnv`) gives every test a session of its own on
// the stand, and a failing test the bots' output, the transcript and the outbox (appended to its error's message).
// Tests take `tgfake` (the test's client) and `startBot` from here.
import { HOOK_TIMEOUT, harness, type HarnessOptions } from "./harness.js";

export { session, startBot, tgfake, type StartBotOptions } from "./harness.js";

type Fn = (...args: unknown[]) => unknown;
type Hook = (fn: () => unknown, timeout?: number) => void;
interface TestApi {
  (name: string, fn?: Fn, timeout?: number): void;
  [key: string]: unknown;
}

function globals(): { [name: string]: unknown } {
  return globalThis as unknown as { [name: string]: unknown };
}

/** An error of any realm (Jest runs tests in a vm context of their own). */
const isError = (e: unknown): e is { message: string } =>
  typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string";

/** The test's function, its failure reported with the evidence while its session is still open. */
function reporting(fn: Fn | undefined, each = false): Fn | undefined {
  if (typeof fn !== "function" || (!each && fn.length > 0)) return fn; // a done-callback test is left as it is
  return async function reported(this: unknown, ...args: unknown[]) {
    try {
      return await fn.apply(this, args);
    } catch (e) {
      const report = await harness()
        .report(isError(e) ? e.message : "")
        .catch((r: unknown) => `(no report: ${String(r)})`);
      if (isError(e)) e.message = `${e.message}\n${report}`;
      else console.error(report);
      throw e;
    }
  };
}

function wrap(original: TestApi): TestApi {
  const wrapped = ((name: string, fn?: Fn, timeout?: number) => original(name, reporting(fn), timeout)) as TestApi;
  for (const key of Object.keys(original)) wrapped[key] = original[key];
  for (const key of ["only", "concurrent", "failing"]) {
    const variant = original[key] as TestApi | undefined;
    if (typeof variant === "function") wrapped[key] = wrap(variant);
  }
  const each = original.each as ((...table: unknown[]) => TestApi) | undefined;
  if (typeof each === "function") {
    wrapped.each = (...table: unknown[]) => {
      const bound = each.apply(original, table);
      return (name: string, fn?: Fn, timeout?: number) => bound(name, reporting(fn, true), timeout);
    };
  }
  return wrapped;
}

export function setupTgfake(options: HarnessOptions = {}): void {
  const g = globals();
  const hook = (name: string) => g[name] as Hook | undefined;
  const [beforeAll, afterAll, beforeEach, afterEach] = ["beforeAll", "afterAll", "beforeEach", "afterEach"].map(hook);
  if (!beforeAll || !afterAll || !beforeEach || !afterEach) {
    throw new Error("setupTgfake() from tgfake/jest runs in a Jest setup file (setupFilesAfterEnv), where Jest's globals are");
  }
  const h = harness(options);
  beforeAll(() => h.setup(), HOOK_TIMEOUT);
  afterAll(() => h.teardown(), HOOK_TIMEOUT);
  beforeEach(() => h.begin(), HOOK_TIMEOUT);
  afterEach(() => h.end(), HOOK_TIMEOUT);
  for (const name of ["test", "it"]) {
    const original = g[name] as TestApi | undefined;
    if (typeof original === "function") g[name] = wrap(original);
  }
}
