import { setupTgfake } from "tgfake/vitest";

setupTgfake();
