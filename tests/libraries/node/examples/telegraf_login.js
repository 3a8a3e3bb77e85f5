// Telegraf's login-bot: /start answers with a login-url button, a url button and a "Delete" button that deletes it.
"use strict";
const { Telegraf, Markup } = require("telegraf");

const keyboard = Markup.inlineKeyboard([
  Markup.button.login("Login", "http://domain.tld/hash", { bot_username: "my_bot", request_write_access: true }),
  Markup.button.url("❤️", "http://telegraf.js.org"),
  Markup.button.callback("Delete", "delete"),
]);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.start((ctx) => ctx.reply("Hello", keyboard));
bot.action("delete", (ctx) => ctx.deleteMessage());
bot.launch();
