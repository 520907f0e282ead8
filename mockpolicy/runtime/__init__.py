"""Runtime truth: a pytest plugin that records what a test run really did
(state each test left behind, what every mock replaced), and the merge of
that record into the static findings.

``plugin`` holds the pytest hooks (inert unless recording is asked for);
``observe`` and ``state`` watch the test process; ``record`` is the file
format; ``merge`` turns a record into findings for ``mockpolicy check --runtime``.
Importing this package imports nothing else.
"""
