"""Settings."""

RETRIES = 3
CURRENCY = "EUR"
