import { setupTgfake } from "tgfake/vitest";

setupTgfake({ timeout: 5_000 });
