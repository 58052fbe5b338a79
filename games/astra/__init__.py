"""Astra (../shared/astra/RULES.md): the designed data only, for now; the game is not playable
yet, so there is no ``game.py`` and the folder is no installed app."""
