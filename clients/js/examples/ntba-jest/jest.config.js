module.exports = {
  // the one call that gives every test a session of its own, a bot runner and failure reports
  setupFilesAfterEnv: ["./setup.js"],
  testTimeout: 60_000,
};
