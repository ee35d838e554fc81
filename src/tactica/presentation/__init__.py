"""The presentation's builders: escaped markup, tables, SVG maps and the safe terminal."""
