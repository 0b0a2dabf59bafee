"""A table simulator: renders videos of a cribbage table with the list of changes that truly happened."""
