"""The LED peg board: layouts (holes -> LEDs), pegs -> LED frames, animations, LED drivers, controls."""
