// grammY's scaling example: a session with a route and two operands, two routers (add, multiply) that read the
// numbers step by step, and a composer with /add, /multiply, /help and a fallback. The example's routers are
// @grammyjs/router's Router(ctx => ctx.session.route); here grammY's own Composer.route does the same dispatch
// (the plugin is not among the pinned packages), and its apiThrottler transformer is left out (it only paces
// calls).
"use strict";
const { Bot, Composer, session } = require("grammy");

function operation(name, verb, apply) {
  const router = new Composer();
  router.route(
    (ctx) => ctx.session.route,
    {
      [`${name}-left`]: async (ctx) => {
        const leftOperand = Number(ctx.msg?.text);
        if (isNaN(leftOperand)) {
          await ctx.reply("Please provide a valid number.");
          return;
        }
        ctx.session.leftOperand = leftOperand;
        ctx.session.route = `${name}-right`;
        await ctx.reply(`Please provide the next number to ${verb}.`);
      },
      [`${name}-right`]: async (ctx) => {
        const rightOperand = Number(ctx.msg?.text);
        if (isNaN(rightOperand)) {
          await ctx.reply("Please provide a valid number.");
          return;
        }
        ctx.session.rightOperand = rightOperand;
        ctx.session.route = "";
        await ctx.reply(
          `The result of ${verb === "add" ? "adding" : "multiplying"} the numbers is ${apply(ctx.session.leftOperand, ctx.session.rightOperand)}`,
        );
      },
    },
    (ctx, next) => next(),
  );
  return router;
}

const composer = new Composer();
composer.command("add", async (ctx) => {
  ctx.session.route = "add-left";
  ctx.session.leftOperand = 0;
  ctx.session.rightOperand = 0;
  await ctx.reply("Send me the first number to add.");
});
composer.command("multiply", async (ctx) => {
  ctx.session.route = "multiply-left";
  ctx.session.leftOperand = 0;
  ctx.session.rightOperand = 0;
  await ctx.reply("Send me the first number to multiply.");
});
composer.command("help", async (ctx) => {
  await ctx.reply("To add numbers, do /add. To multiply numbers, do /multiply.");
});
composer.use(async (ctx) => {
  await ctx.reply("Not a recognised input. If you need help, do /help.");
});

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.use(session({ initial: () => ({ route: "", leftOperand: 0, rightOperand: 0 }) }));
bot.use(operation("add", "add", (a, b) => a + b));
bot.use(operation("multiply", "multiply", (a, b) => a * b));
bot.use(composer);
bot.start();
