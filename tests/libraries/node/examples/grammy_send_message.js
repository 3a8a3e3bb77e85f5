// grammY's send-message example: no bot loop, one sendMessage to a user by id (USER_ID; the example's 1234).
"use strict";
const { Bot } = require("grammy");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.api.sendMessage(Number(process.env.USER_ID), "I wrote a Telegram bot!");
