"""The tile grid battlefield: tiles, corner-to-corner sight lines, metrics, map files."""
