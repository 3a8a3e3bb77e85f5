import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // one stand for the run (TGFAKE_URL when set, else tgfake from PATH on a free port)...
    globalSetup: ["tgfake/vitest/global"],
    // ...and the one call that gives every test a session of its own, a bot runner and failure reports
    setupFiles: ["./setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
