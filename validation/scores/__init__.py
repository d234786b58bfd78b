"""The scores of docs/validation.md: one module per data set, each yielding Score rows."""
