"""Default settings: values only, configuration rather than code."""

TIMEOUT = 0
RETRIES = 1
DELAY = 2
USER_AGENT = 3
CONCURRENCY = 4
DEPTH_LIMIT = 5
LOG_LEVEL = 6
ENCODING = 7
BATCH_SIZE = 8
QUEUE_NAME = 9
