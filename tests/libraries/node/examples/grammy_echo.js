// grammY's echo example (and runner.ts's, which runs the same bot with @grammyjs/runner): every text message is
// answered with its text; bot.start() long polling.
"use strict";
const { Bot } = require("grammy");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.on("message:text", (ctx) => ctx.reply(ctx.message.text));
bot.start();
