#ifndef BROLLY_SQLITE_H
#define BROLLY_SQLITE_H

struct sqlite3;

/// `sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, 0)`, which Swift cannot call (it is
/// variadic): the last connection to close leaves the write-ahead log as it is instead of copying
/// it into the database and deleting it. Returns SQLite's result code.
int brolly_sqlite_keep_log_on_close(struct sqlite3 *db);

#endif
