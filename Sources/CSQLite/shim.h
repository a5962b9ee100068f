// The system SQLite, for QuarryLive's SQLiteStore.
#include <sqlite3.h>
