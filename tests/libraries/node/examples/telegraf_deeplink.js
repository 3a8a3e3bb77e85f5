// Telegraf's deeplink-bot example: /start answers with the deep link's payload (ctx.startPayload).
"use strict";
const { Telegraf } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.start((ctx) => ctx.reply(`Deep link payload: ${ctx.startPayload}`));
bot.launch();
