"""FlexHeap benchmark harness: budgets, device profiles, policies, sampling, comparison, plots."""

__version__ = "0.1.0"
