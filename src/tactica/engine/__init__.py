"""The engine: dice streams, battles, events, rulings, scenarios, odds; what every game stands
on."""
