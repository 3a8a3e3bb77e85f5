import { beforeEach, expect, test } from "vitest";

import { tgfake } from "tgfake/vitest";

import { start } from "./start.js";

beforeEach(start);

test("the bot greets a group by its title", async () => {
  const team = await tgfake.createChat("Team", { members: ["bob", "@tgfake_bot"] });
  await tgfake.send("/hello", { chat: team, user: "bob" });
  await tgfake.expectReply("Hello, Team!", { chat: team });
  expect(await tgfake.transcript(team)).toContain("bob: /hello");
});

test("an answer from the scripted model through the openai SDK", async () => {
  await tgfake.script([{ match: "weather", answer: "Sunny, 22 °C in Paris." }]);
  await tgfake.send("What's the weather in Paris?");
  await tgfake.expectReply("Sunny, 22 °C in Paris.");
  const journal = await tgfake.journal();
  expect(journal).toHaveLength(1);
  expect(JSON.stringify(journal[0])).toContain("What's the weather in Paris?");
});
