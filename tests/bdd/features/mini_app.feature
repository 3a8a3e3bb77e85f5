Feature: The offline Telegram stand opens a bot's Mini App
  The person opens a Mini App the way Telegram does: the app's address gets the launch parameters
  in its fragment, and the launch data is signed with the bot's token as Telegram documents it.

  Scenario: A web_app button opens a launch signed with the bot's token
    Given the bot sent a button "Open" opening "https://app.example.com/?session=sess_1"
    When the person opens the Mini App of the button "Open"
    Then the app gets "https://app.example.com/?session=sess_1" with the launch parameters in the fragment
    And the launch data checks out with the bot's token

  Scenario: The menu button opens the bot's Mini App
    Given the bot set its menu button to "https://app.example.com/"
    Then the chat shows a menu button opening "https://app.example.com/"
    When the person opens the Mini App from the menu button
    Then the app gets "https://app.example.com/" with the launch parameters in the fragment
    And the launch data checks out with the bot's token
