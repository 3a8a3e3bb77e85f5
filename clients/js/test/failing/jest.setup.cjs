require("tgfake/jest").setupTgfake();
