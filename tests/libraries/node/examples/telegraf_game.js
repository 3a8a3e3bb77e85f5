// Telegraf's game-bot: /start sends the game, /foo sends it with a play button and a url button, and the game's
// callback is answered with the game's url.
"use strict";
const { Telegraf, Markup } = require("telegraf");

const gameShortName = "your-game";
const gameUrl = "https://your-game.tld";
const markup = Markup.inlineKeyboard([
  Markup.button.game("🎮 Play now!"),
  Markup.button.url("Telegraf help", "http://telegraf.js.org"),
]);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.start((ctx) => ctx.replyWithGame(gameShortName));
bot.command("foo", (ctx) => ctx.replyWithGame(gameShortName, markup));
bot.gameQuery((ctx) => ctx.answerGameQuery(gameUrl));
bot.launch();
