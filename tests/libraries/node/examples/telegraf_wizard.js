// Telegraf's wizard examples (wizard.ts and its five custom context / session variants, which add a context field
// and random session numbers to step 3's text): a five-step WizardScene as the Stage's default scene, whose
// second step goes on by an inline button or by /next and otherwise asks for one of them in Markdown.
"use strict";
const { Composer, Markup, Scenes, session, Telegraf } = require("telegraf");

const stepHandler = new Composer();
stepHandler.action("next", async (ctx) => {
  ctx.scene.session.myWizardSessionProp = Math.floor(10 * Math.random());
  await ctx.reply("Step 2. Via inline button");
  return ctx.wizard.next();
});
stepHandler.command("next", async (ctx) => {
  ctx.scene.session.myWizardSessionProp = Math.floor(10 * Math.random()) + 10;
  await ctx.reply("Step 2. Via command");
  return ctx.wizard.next();
});
stepHandler.use((ctx) => ctx.replyWithMarkdown("Press `Next` button or type /next"));

const superWizard = new Scenes.WizardScene(
  "super-wizard",
  async (ctx) => {
    await ctx.reply(
      "Step 1",
      Markup.inlineKeyboard([Markup.button.url("❤️", "http://telegraf.js.org"), Markup.button.callback("➡️ Next", "next")]),
    );
    return ctx.wizard.next();
  },
  stepHandler,
  async (ctx) => {
    await ctx.reply(`[${ctx.myContextProp}] Step 3.\nYour random myWizardSessionProp is ${ctx.scene.session.myWizardSessionProp}`);
    return ctx.wizard.next();
  },
  async (ctx) => {
    await ctx.reply("Step 4");
    return ctx.wizard.next();
  },
  async (ctx) => {
    await ctx.reply("Done");
    return await ctx.scene.leave();
  },
);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
const stage = new Scenes.Stage([superWizard], { default: "super-wizard" });
bot.use(session());
bot.use((ctx, next) => {
  ctx.myContextProp = "ctx";
  return next();
});
bot.use(stage.middleware());
bot.launch();
