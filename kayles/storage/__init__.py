"""What is kept on disk: saved tables, checkpoints and long tables of long runs, the proof
cache, the survey database and the records they hold.  Every file here may be hostile:
each reader checks what it reads.  Uses the engine; knows nothing of analyses or programs.
"""
