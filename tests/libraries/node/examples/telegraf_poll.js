// Telegraf's poll-bot: poll and poll_answer updates logged, /start shows poll-request buttons (regular and quiz),
// /poll a non-anonymous poll, /quiz a quiz with its correct option.
"use strict";
const { Telegraf, Markup } = require("telegraf");

const keyboard = Markup.keyboard([
  Markup.button.pollRequest("Create poll", "regular"),
  Markup.button.pollRequest("Create quiz", "quiz"),
]);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.on("poll", (ctx) => console.log("Poll update %j", ctx.poll));
bot.on("poll_answer", (ctx) => console.log("Poll answer %j", ctx.pollAnswer));
bot.start((ctx) => ctx.reply("supported commands: /poll /quiz", keyboard));
bot.command("poll", (ctx) =>
  ctx.replyWithPoll("Your favorite math constant", ["x", "e", "π", "φ", "γ"], { is_anonymous: false }),
);
bot.command("quiz", (ctx) => ctx.replyWithQuiz("2b|!2b", ["True", "False"], { correct_option_id: 0 }));
bot.launch();
