// Vitest: `setupTgfake()` in a setup file (vitest.config's `test.setupFiles`) gives every test a session of its own
// on the stand, and a failing test the bots' output, the transcript and the outbox. Tests import `tgfake` (the
// test's client) and `startBot` from here. For one stand for the whole run, add `globalSetup: ["tgfake/vitest/global"]`.
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

import { HOOK_TIMEOUT, harness, type HarnessOptions } from "./harness.js";

export { session, startBot, tgfake, type StartBotOptions } from "./harness.js";

export function setupTgfake(options: HarnessOptions = {}): void {
  const h = harness(options);
  beforeAll(() => h.setup(), HOOK_TIMEOUT);
  afterAll(() => h.teardown(), HOOK_TIMEOUT);
  beforeEach(() => h.begin(), HOOK_TIMEOUT);
  afterEach(async (context) => {
    try {
      const result = context.task.result;
      if (result?.state === "fail") {
        const first = result.errors?.[0];
        const report = await h.report(first?.message);
        if (first) first.message = `${first.message}\n${report}`;
        else console.error(report);
      }
    } finally {
      await h.end();
    }
  }, HOOK_TIMEOUT);
}
