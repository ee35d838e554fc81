"""The zone graph battlefield: named zones, their connections, map files."""
