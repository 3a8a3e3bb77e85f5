import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["*.fails.ts"], setupFiles: ["./vitest.setup.ts"], testTimeout: 60_000, hookTimeout: 90_000 },
});
