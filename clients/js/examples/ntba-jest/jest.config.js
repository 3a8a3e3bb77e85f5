module.exports = {
  // one stand for the run (TGFAKE_URL when set, else tgfake from PATH on a free port), stopped after it...
  globalSetup: "tgfake/jest/global-setup",
  globalTeardown: "tgfake/jest/global-teardown",
  // ...and the one call that gives every test a session of its own, a bot runner and failure reports
  setupFilesAfterEnv: ["./setup.js"],
  testTimeout: 60_000,
};
