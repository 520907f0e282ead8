"""A package its registry fills: each model class is added under its own name when registered."""
