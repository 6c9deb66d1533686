#include "brolly_sqlite.h"
#include <sqlite3.h>

int brolly_sqlite_keep_log_on_close(struct sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
