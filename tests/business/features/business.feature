Feature: A business bot answers the customers of a business account (the business steps)

  Background:
    Given the bot "python tests/business/business_bot.py" is running
    And alice connects the bot to her business account with "can_reply", "can_read_messages"

  Scenario: A customer asks for the price and the bot answers as the owner
    When bob writes "price" to alice's business account
    Then the bot answers bob "Roses: 3 stars each" on alice's behalf

  Scenario: Outside its rights the bot is refused with Telegram's words
    When bob writes "bio" to alice's business account
    Then the bot answers bob "refused: Bot_access_forbidden" on alice's behalf
