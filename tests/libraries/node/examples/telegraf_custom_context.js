// Telegraf's custom-context-bot example: a Context subclass (logs each update and each reply) as contextType;
// /start and /help. Its log lines go to stdout, where the test reads what the bot received.
"use strict";
const { Telegraf, Context } = require("telegraf");

class CustomContext extends Context {
  constructor(update, telegram, botInfo) {
    console.log("Creating context for %j", update);
    super(update, telegram, botInfo);
  }

  reply(...args) {
    console.log("reply called with args: %j", args);
    return super.reply(...args);
  }
}

const bot = new Telegraf(process.env.BOT_TOKEN, {
  contextType: CustomContext,
  telegram: { apiRoot: process.env.TELEGRAM_API },
});
bot.start((ctx) => ctx.reply("Hello"));
bot.help((ctx) => ctx.reply("Help message"));
bot.launch();
process.once("SIGINT", () => bot.stop("SIGINT"));
process.once("SIGTERM", () => bot.stop("SIGTERM"));
