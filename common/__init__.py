"""The bottom layer: small helpers that know nothing of Hearts, for any
layer to use. Nothing here imports another package of this repository.

Only what more than one layer needs belongs here (today: ``common.retry``,
the backoff both the server and the client retry with)."""
