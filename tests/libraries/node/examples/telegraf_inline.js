// Telegraf's inline-bot: an inline query is answered with article results (title, description, thumb_url, a text
// message and a url button), built from a recipe search; chosen inline results are logged. The search is the
// example's recipepuppy.com API; here a local server at RECIPES_API answers it (the stand has no network).
"use strict";
const { Telegraf, Markup } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.on("inline_query", async (ctx) => {
  const apiUrl = `${process.env.RECIPES_API}/api/?q=${ctx.inlineQuery.query}`;
  const response = await fetch(apiUrl);
  const { results } = await response.json();
  const recipes = results
    .filter(({ thumbnail }) => thumbnail)
    .map(({ title, href, thumbnail }) => ({
      type: "article",
      id: thumbnail,
      title: title,
      description: title,
      thumb_url: thumbnail,
      input_message_content: { message_text: title },
      ...Markup.inlineKeyboard([Markup.button.url("Go to recipe", href)]),
    }));
  return await ctx.answerInlineQuery(recipes);
});
bot.on("chosen_inline_result", ({ chosenInlineResult }) => {
  console.log("chosen inline result %j", chosenInlineResult);
});
bot.launch();
