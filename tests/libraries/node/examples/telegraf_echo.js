// Telegraf's echo-bot example, same shape: /start and /help answer, any other message is copied back with a url and
// a "Delete" button, and the button deletes the copy.
"use strict";
const { Telegraf, Markup } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
const keyboard = Markup.inlineKeyboard([
  Markup.button.url("❤️", "http://telegraf.js.org"),
  Markup.button.callback("Delete", "delete"),
]);

bot.start((ctx) => ctx.reply("Hello"));
bot.help((ctx) => ctx.reply("Help message"));
bot.on("message", (ctx) => ctx.copyMessage(ctx.message.chat.id, keyboard));
bot.action("delete", (ctx) => ctx.deleteMessage());
bot.launch();
