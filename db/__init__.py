"""Game database: SQLAlchemy models, import and questions answered as pandas frames."""
