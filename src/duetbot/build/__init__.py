"""Maintainer-time builders of shipped data (never imported by the bots or the faces at run time)."""
