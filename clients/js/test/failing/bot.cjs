// A grammY bot for the failing suites: says what it got on stdout and answers "Hi", or exits at once with
// EXIT_AT_ONCE (a bot that dies before its first call).
"use strict";

if (process.env.EXIT_AT_ONCE) {
  console.error("cannot read my configuration");
  process.exit(3);
}
const { Bot } = require("grammy");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.on("message:text", async (ctx) => {
  console.log(`bot got: ${ctx.message.text}`);
  await ctx.reply("Hi");
});
process.once("SIGTERM", () => bot.stop());
bot.start();
