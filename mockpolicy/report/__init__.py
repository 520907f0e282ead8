"""``mockpolicy report``: one self-contained HTML page of a suite's mock debt.

``gather`` analyses the files once (findings, and the first-party targets of
every mock site), ``history`` reads the baseline file's versions from git,
``model`` aggregates both into what the page shows, ``charts`` lays out the
charts, and ``render`` writes the page with Jinja2 (the ``report`` extra).
Nothing here prints; ``history`` is also used by the Markdown format's trend.
"""
