"""duetbot: AI partners for Codenames: Duet, built on word embeddings."""

__version__ = "0.1.0"
