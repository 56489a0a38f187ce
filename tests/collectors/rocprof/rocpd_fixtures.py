#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rocpd databases for the rocprof tests, built with Python's sqlite3 module.

The schema is rocprofv3's (rocprofiler-sdk 1.0, ROCm 7.0), as the stand-in
examples/no-gpu/rocm/rocprofv3 writes it (loaded from there): one set of
tables per process, each named rocpd_<table>_<uuid> (a UUIDv7 with '-'
made '_'), and plain-name views (`CREATE VIEW IF NOT EXISTS rocpd_<table>
AS SELECT * FROM rocpd_<table>_<uuid>`) in the same file -- so when a
second process's tables join a file, the views keep showing the first
process unless something rewrites them.  The `kernels` and `top_kernels`
convenience views are there too (the collector reads neither).  Only the
columns rocprofv3 writes for kernel dispatches and kernel symbols carry
meaning; the other tables are present and mostly empty.

Usage:
  rocpd_fixtures.py fixtures OUT         the fixture directories the Check suites read
  rocpd_fixtures.py seeds OUT            small databases (512-byte pages) for the fuzz corpus
  rocpd_fixtures.py differential OUT SEED COUNT
                                         the same random dispatches as OUT/csv/aorta_kernel_trace.csv
                                         and OUT/db/aorta_results.db
  rocpd_fixtures.py bench OUT COUNT      COUNT dispatches as OUT/csv/... and OUT/db/... (bench/)
"""

import importlib.machinery
import importlib.util
import os
import random
import sqlite3
import sys

# rocprofv3's schema, and the writer of its databases, are the stand-in's
# (examples/no-gpu/rocm/rocprofv3): one copy, loaded from that script.
HERE = os.path.dirname(os.path.realpath(__file__))
STANDIN = os.path.join(HERE, "..", "..", "..", "examples", "no-gpu", "rocm", "rocprofv3")
_loader = importlib.machinery.SourceFileLoader("rocprofv3_standin", STANDIN)
_standin = importlib.util.module_from_spec(importlib.util.spec_from_loader(_loader.name, _loader))
_loader.exec_module(_standin)
BASE_TIMESTAMP = _standin.BASE_TIMESTAMP
TABLES = _standin.TABLES
Process = _standin.Process
uuid_suffix = _standin.uuid_suffix
create_views = _standin.create_views
write_db = _standin.write_db


def simple(names_ns, index=0, start=BASE_TIMESTAMP):
    """One process dispatching each (name, calls, ns) in turn."""
    process = Process(index)
    for name, calls, ns in names_ns:
        kid = process.symbol(name)
        for _ in range(calls):
            process.dispatch(kid, start, start + ns)
            start += ns + 1000
    return process


SGEMM = "sgemm_tiled(float const*, float const*, float*, int)"
FILL = "__amd_rocclr_fillBufferAligned"
ELEMENTWISE = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
               "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
               "at::detail::Array<char*, 1>)")
QUOTED = 'void k<"a,b">(int, "x, y")'


def fixtures(out):
    # single: 9 dispatches counted; three that are not (end before start, an
    # end that is text, a kernel with no symbol).
    p = simple([(SGEMM, 2, 100000), (FILL, 2, 5000), (ELEMENTWISE, 3, 20000)])
    sgemm = p.symbols[0][0]
    t = BASE_TIMESTAMP + 10 ** 8
    p.dispatch(sgemm, t, t + 100000)
    p.dispatch(sgemm, t + 200000, t + 300000)
    p.dispatch(sgemm, t + 400000, t + 399999)  # end < start
    p.dispatch(sgemm, t + 500000, "n/a")       # not a number
    p.dispatch(99, t + 600000, t + 600777)     # no symbol
    write_db(os.path.join(out, "single", "aorta_results.db"), [p])

    def two_processes():
        a, b = Process(0), Process(1)
        a1, a2 = a.symbol("alpha"), a.symbol("beta")
        b1, b2 = b.symbol("gamma"), b.symbol("alpha")
        t = BASE_TIMESTAMP
        a.dispatch(a1, t, t + 1000)
        a.dispatch(a2, t + 2000, t + 5000)
        a.dispatch(a1, t + 6000, t + 7000)
        b.dispatch(b1, t, t + 3000)  # same kernel id as alpha in process a
        b.dispatch(b2, t + 4000, t + 4500)
        return [a, b]

    write_db(os.path.join(out, "multi_process_union", "aorta_results.db"), two_processes(),
             views="union")
    write_db(os.path.join(out, "multi_process_first", "aorta_results.db"), two_processes())

    write_db(os.path.join(out, "several_files", "host", "111_results.db"),
             [simple([("k_shared", 2, 1000)], 0)])
    write_db(os.path.join(out, "several_files", "host", "222_results.db"),
             [simple([("k_shared", 1, 1000), ("k_two", 1, 5000)], 1)])
    write_db(os.path.join(out, "several_files", "rank1", "aorta_results.db"),
             [simple([("k_shared", 1, 1000)], 2)])

    write_db(os.path.join(out, "quoted_name", "aorta_results.db"),
             [simple([(QUOTED, 1, 7000), ("plain", 2, 500), ("  padded \t", 1, 500)])])

    write_db(os.path.join(out, "empty_capture", "aorta_results.db"), [Process(0)])

    big = simple([(SGEMM, 1500, 100000), (FILL, 1500, 5000)])
    truncated = os.path.join(out, "truncated", "aorta_results.db")
    write_db(truncated, [big])
    size = os.path.getsize(truncated)
    with open(truncated, "r+b") as f:
        f.truncate(size // 2)
    os.makedirs(os.path.join(out, "truncated_plus_good"), exist_ok=True)
    with open(truncated, "rb") as f, \
            open(os.path.join(out, "truncated_plus_good", "a_results.db"), "wb") as g:
        g.write(f.read())
    write_db(os.path.join(out, "truncated_plus_good", "b_results.db"),
             [simple([("survivor", 3, 1000)])])

    os.makedirs(os.path.join(out, "not_sqlite"), exist_ok=True)
    with open(os.path.join(out, "not_sqlite", "aorta_results.db"), "w") as f:
        f.write('"Kind","Agent_Id"\nnot a database\n')

    # display_name renamed: the schema changed.
    p = simple([(SGEMM, 1, 1000)])
    path = os.path.join(out, "schema_changed", "aorta_results.db")
    write_db(path, [p], views=None)
    db = sqlite3.connect(path)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT * FROM `rocpd_kernel_dispatch_%s`"
               % p.uuid)
    db.execute("CREATE VIEW `rocpd_info_kernel_symbol` AS SELECT id, guid, kernel_name AS name "
               "FROM `rocpd_info_kernel_symbol_%s`" % p.uuid)
    db.commit()
    db.close()
    real_ddl(out)
    hostile(out)
    # Tables only: nothing under the plain names.
    write_db(os.path.join(out, "no_views", "aorta_results.db"), [simple([(SGEMM, 1, 1000)])],
             views=None)


def real_ddl(out):
    """real_ddl/: the two tables as rocprofv3's rocpd_tables.sql declares
    them -- AUTOINCREMENT keys, double-quoted defaults ("{{guid}}", "{}"),
    CHECK constraints, foreign keys, an index on start -- and its views: what
    the guard must let through."""
    path = os.path.join(out, "real_ddl", "aorta_results.db")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    u = uuid_suffix(0)
    db = sqlite3.connect(path)
    db.execute('CREATE TABLE `rocpd_info_code_object_%s` ("id" INTEGER NOT NULL PRIMARY KEY '
               'AUTOINCREMENT, "guid" TEXT DEFAULT "{{guid}}" NOT NULL, "storage_type" TEXT '
               'CHECK ("storage_type" IN (\'FILE\', \'MEMORY\')), "extdata" JSONB DEFAULT "{}" '
               'NOT NULL)' % u)
    db.execute('CREATE TABLE `rocpd_info_kernel_symbol_%s` ("id" INTEGER NOT NULL PRIMARY KEY '
               'AUTOINCREMENT, "guid" TEXT DEFAULT "{{guid}}" NOT NULL, "code_object_id" INTEGER '
               'NOT NULL, "display_name" TEXT, "extdata" JSONB DEFAULT "{}" NOT NULL, '
               'FOREIGN KEY (code_object_id) REFERENCES `rocpd_info_code_object_%s` (id) ON '
               'UPDATE CASCADE)' % (u, u))
    db.execute('CREATE TABLE `rocpd_kernel_dispatch_%s` ("id" INTEGER NOT NULL PRIMARY KEY '
               'AUTOINCREMENT, "guid" TEXT DEFAULT "{{guid}}" NOT NULL, "kernel_id" INTEGER NOT '
               'NULL, "start" BIGINT NOT NULL, "end" BIGINT NOT NULL, "extdata" JSONB DEFAULT '
               '"{}" NOT NULL, FOREIGN KEY (kernel_id) REFERENCES `rocpd_info_kernel_symbol_%s` '
               '(id) ON UPDATE CASCADE)' % (u, u))
    db.execute('CREATE INDEX `rocpd_kernel_dispatch_%s_start_idx` ON `rocpd_kernel_dispatch_%s` '
               '("start")' % (u, u))
    db.execute("INSERT INTO `rocpd_info_code_object_%s` (guid, storage_type) VALUES ('g', 'FILE')"
               % u)
    db.execute("INSERT INTO `rocpd_info_kernel_symbol_%s` (guid, code_object_id, display_name) "
               "VALUES ('g', 1, ?)" % u, (SGEMM,))
    db.executemany("INSERT INTO `rocpd_kernel_dispatch_%s` (guid, kernel_id, start, \"end\") "
                   "VALUES ('g', 1, ?, ?)" % u, [(1000, 101000), (200000, 300000)])
    for name in ("info_kernel_symbol", "kernel_dispatch"):
        db.execute("CREATE VIEW IF NOT EXISTS\n    `rocpd_%s` AS\nSELECT\n    *\nFROM\n    "
                   "`rocpd_%s_%s`;" % (name, name, u))
    db.commit()
    db.close()


SYMBOL_VIEW = ("CREATE VIEW `rocpd_info_kernel_symbol` AS "
               "SELECT 'g' AS guid, 1 AS id, 'k' AS display_name")


def numbers(db, table, count):
    db.execute("CREATE TABLE `%s` (n INTEGER)" % table)
    db.executemany("INSERT INTO `%s` VALUES (?)" % table, [(i,) for i in range(count)])


def doubling_views(db, levels, base=1000):
    """v0 holds base characters; each v<k> doubles v<k-1> with || (no function)."""
    db.execute("CREATE TABLE t (x TEXT)")
    db.execute("INSERT INTO t VALUES (?)", ("a" * base,))
    db.execute("CREATE VIEW v0 AS SELECT x FROM t")
    for k in range(1, levels + 1):
        db.execute("CREATE VIEW v%d AS SELECT x || x AS x FROM v%d" % (k, k - 1))


def hostile_printf(db):
    # issue 27: one step spends seconds (SQLite's %c repeats in a loop)
    numbers(db, "u", 3)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT 'g' AS guid, 1 AS kernel_id, "
               "0 AS start, length(printf('%.*c', 2e9 - n, 'x')) AS end FROM u")


def hostile_blobs(db):
    # each row makes and measures 1.8 MB of blobs, a million rows
    numbers(db, "u", 100)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT 'g' AS guid, 1 AS kernel_id, "
               "a.n AS start, a.n + length(zeroblob(900000)) - length(randomblob(900000)) "
               "+ 900000 AS end FROM u a, u b, u c")


def hostile_recursive(db):
    # never ends
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS WITH RECURSIVE c(x) AS "
               "(SELECT 1 UNION ALL SELECT x + 1 FROM c) "
               "SELECT 'g' AS guid, 1 AS kernel_id, x AS start, x + 1 AS end FROM c")


def hostile_generated(db):
    # a function the views do not show: a generated column computes it
    # (the schema's text rewritten afterwards, or the rows would be computed
    # here: SQLite checks them as they are inserted)
    db.execute("CREATE TABLE d (guid TEXT, kernel_id INTEGER, start INTEGER, n INTEGER, "
               "end INTEGER GENERATED ALWAYS AS (n + 1))")
    db.execute("INSERT INTO d (guid, kernel_id, start, n) VALUES ('g', 1, 0, 1), ('g', 1, 0, 2)")
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT * FROM d")
    db.commit()
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = replace(sql, '(n + 1)', "
               "'(length(printf(''%.*c'', 2e9 - n, ''x'')))') WHERE name = 'd'")
    db.commit()
    db.execute("PRAGMA writable_schema = OFF")


def hostile_cross_join(db):
    # 200^5 rows from a table of 200: plain reads, endless work
    numbers(db, "u", 200)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT 'g' AS guid, 1 AS kernel_id, "
               "a.n AS start, a.n + 1 AS end FROM u a, u b, u c, u d, u e")


def hostile_slow_steps(db):
    # no function, few steps, each one copying and comparing a megabyte
    numbers(db, "u", 100)
    doubling_views(db, 10)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT 'g' AS guid, 1 AS kernel_id, "
               "0 AS start, CASE WHEN v10.x < v10.x || 'b' THEN 1 ELSE 0 END AS end "
               "FROM u a, u b, u c, v10")


def hostile_sort(db):
    # sorting 10,000 rows of 256 KB: gigabytes
    numbers(db, "u", 100)
    doubling_views(db, 8)
    db.execute("CREATE VIEW `rocpd_kernel_dispatch` AS SELECT 'g' AS guid, 1 AS kernel_id, "
               "a.n AS start, b.n + 1000 AS end FROM u a, u b, v8 ORDER BY v8.x || a.n, b.n")


HOSTILE = (("printf_view", hostile_printf), ("blob_view", hostile_blobs),
           ("recursive_view", hostile_recursive), ("generated_column", hostile_generated),
           ("cross_join", hostile_cross_join), ("slow_steps", hostile_slow_steps),
           ("sort_view", hostile_sort))
SPARSE_SIZE = 100 * 10 ** 9


def write_hostile(path, build, page_size=4096):
    if os.path.exists(path):
        os.unlink(path)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = %d" % page_size)
    db.execute("PRAGMA journal_mode = OFF")
    build(db)
    db.execute(SYMBOL_VIEW)
    db.commit()
    db.close()


def extend_sparse(path, size):
    """Holes to size bytes (a file system that refuses that size: 10 GB)."""
    for target in (size, 10 ** 10):
        try:
            with open(path, "r+b") as f:
                f.truncate(target)
            return
        except OSError:
            continue


def hostile(out):
    """hostile/<name>/aorta_results.db: databases whose views or schema ask
    for expensive work, each beside a trace CSV of one valid dispatch."""
    for name, build in HOSTILE:
        directory = os.path.join(out, "hostile", name)
        path = os.path.join(directory, "aorta_results.db")
        write_hostile(path, build)
        with open(os.path.join(directory, "aorta_kernel_trace.csv"), "w", newline="") as f:
            f.write(TRACE_HEADER + '"KERNEL_DISPATCH","Agent 2",1,0,1,1,1,"from_trace",1,100,700,'
                    '0,2048,20,0,32,16,16,1,512,512,1\n')
    # the cross join once more, its file made 100 GB of holes
    sparse = os.path.join(out, "hostile", "sparse")
    os.makedirs(sparse, exist_ok=True)
    for name in ("aorta_results.db", "aorta_kernel_trace.csv"):
        with open(os.path.join(out, "hostile", "cross_join", name), "rb") as f, \
                open(os.path.join(sparse, name), "wb") as g:
            g.write(f.read())
    extend_sparse(os.path.join(sparse, "aorta_results.db"), SPARSE_SIZE)
    companions(out)


def companions(out):
    """wal/: a capture whose last dispatches are still in its write-ahead
    log (copied while the writer held it open, before any checkpoint), as a
    profiler killed before it closed the database leaves it; journal/: a
    database beside a rollback journal."""
    directory = os.path.join(out, "wal")
    os.makedirs(directory, exist_ok=True)
    work = os.path.join(directory, "writer.db")
    write_db(work, [simple([(SGEMM, 2, 100000)])])
    db = sqlite3.connect(work)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    uuid = uuid_suffix(0)
    db.execute("INSERT INTO `rocpd_kernel_dispatch_%s` (guid, nid, pid, agent_id, kernel_id, "
               "dispatch_id, queue_id, stream_id, start, end, workgroup_size_x, "
               "workgroup_size_y, workgroup_size_z, grid_size_x, grid_size_y, grid_size_z) "
               "SELECT guid, nid, pid, agent_id, kernel_id, dispatch_id + 100, queue_id, "
               "stream_id, start + 10000000, end + 10000000, 1, 1, 1, 1, 1, 1 "
               "FROM `rocpd_kernel_dispatch_%s`" % (uuid, uuid))
    db.commit()
    for suffix in ("", "-wal", "-shm"):
        with open(work + suffix, "rb") as f, \
                open(os.path.join(directory, "aorta_results.db" + suffix), "wb") as g:
            g.write(f.read())
    db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(work + suffix):
            os.unlink(work + suffix)
    directory = os.path.join(out, "journal")
    write_db(os.path.join(directory, "aorta_results.db"), [simple([(SGEMM, 2, 100000)])])
    with open(os.path.join(directory, "aorta_results.db-journal"), "wb") as f:
        f.write(b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7" + bytes(504))


def seeds(out):
    os.makedirs(out, exist_ok=True)
    small = dict(page_size=512, convenience=False,
                 tables=("info_kernel_symbol", "kernel_dispatch"))

    def only(path, processes, **kw):
        options = dict(small)
        options.update(kw)
        # the tables the views do not name are left out too, to stay small
        if os.path.exists(path):
            os.unlink(path)
        db = sqlite3.connect(path)
        db.execute("PRAGMA page_size = 512")
        db.execute("PRAGMA journal_mode = OFF")
        for p in processes:
            for name in options["tables"]:
                db.execute("CREATE TABLE `rocpd_%s_%s` (%s)" % (name, p.uuid, TABLES[name]))
            db.executemany("INSERT INTO `rocpd_info_kernel_symbol_%s` (id, guid, nid, pid, "
                           "code_object_id, display_name) VALUES (?, ?, 1, 1, 1, ?)" % p.uuid,
                           [(kid, p.guid, name) for kid, name in p.symbols])
            db.executemany("INSERT INTO `rocpd_kernel_dispatch_%s` (guid, nid, pid, agent_id, "
                           "kernel_id, dispatch_id, queue_id, stream_id, start, end, "
                           "workgroup_size_x, workgroup_size_y, workgroup_size_z, grid_size_x, "
                           "grid_size_y, grid_size_z) VALUES (?, 1, 1, 2, ?, 1, 1, 0, ?, ?, 1, 1, "
                           "1, 1, 1, 1)" % p.uuid,
                           [(p.guid, kid, s, e) for kid, s, e in p.dispatches])
        if options.get("views", "first") == "union":
            for name in options["tables"]:
                db.execute("CREATE VIEW `rocpd_%s` AS %s" % (name, " UNION ALL ".join(
                    "SELECT * FROM `rocpd_%s_%s`" % (name, p.uuid) for p in processes)))
        else:
            for p in processes:
                create_views(db, p, options["tables"])
        db.commit()
        db.close()

    only(os.path.join(out, "seed-one-process.db"),
         [simple([(SGEMM, 2, 1000), (FILL, 1, 300)])])
    a, b = simple([("alpha", 2, 10)], 0), simple([("beta", 1, 30), ("alpha", 1, 5)], 1)
    only(os.path.join(out, "seed-two-processes-union.db"), [a, b], views="union")
    only(os.path.join(out, "seed-quoted-name.db"), [simple([(QUOTED, 1, 7)])])
    only(os.path.join(out, "seed-empty.db"), [Process(0)])
    with open(os.path.join(out, "seed-not-sqlite.db"), "w") as f:
        f.write('"Kind","Agent_Id"\nnot a database\n')
    # the hostile databases, small pages (the cross join is also the
    # sparse file's: holes are not kept in a corpus)
    for name, build in HOSTILE:
        if name in ("printf_view", "blob_view", "recursive_view", "generated_column",
                    "cross_join"):
            write_hostile(os.path.join(out, "seed-hostile-%s.db" % name.replace("_", "-")),
                          build, page_size=512)
    full = os.path.join(out, "seed-one-process.db")
    with open(full, "rb") as f:
        data = f.read()
    with open(os.path.join(out, "seed-truncated.db"), "wb") as f:
        f.write(data[:len(data) * 2 // 3])


def random_names(rng, count):
    pieces = ["void", "at::native::", "kernel", "<float>", "<4, c10::Half>", "(int, float*)",
              " ", ",", ", ", "é", "ß", "\u4e2d", "::{lambda(int)#1}", "_", "Cijk_Ailk_Bljk_"]
    names = set()
    while len(names) < count:
        name = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8))).strip()
        if name:
            names.add(name)
    return sorted(names)


TRACE_HEADER = ('"Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id","Dispatch_Id","Kernel_Id",'
                '"Kernel_Name","Correlation_Id","Start_Timestamp","End_Timestamp",'
                '"LDS_Block_Size","Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count",'
                '"Workgroup_Size_X","Workgroup_Size_Y","Workgroup_Size_Z","Grid_Size_X",'
                '"Grid_Size_Y","Grid_Size_Z"\n')


def write_both(out, processes):
    """The processes' dispatches as a kernel-trace CSV (rocprofv3's
    quoting, every process in one file) and as one rocpd file per process."""
    os.makedirs(os.path.join(out, "csv"), exist_ok=True)
    with open(os.path.join(out, "csv", "aorta_kernel_trace.csv"), "w", newline="") as f:
        f.write(TRACE_HEADER)
        n = 0
        for p in processes:
            names = dict(p.symbols)
            for kid, start, end in p.dispatches:
                n += 1
                f.write('"KERNEL_DISPATCH","Agent 2",1,0,%d,%d,%d,"%s",%d,%d,%d,0,2048,20,0,32,'
                        '16,16,1,512,512,1\n' % (p.pid, n, kid, names[kid], n, start, end))
    for p in processes:
        write_db(os.path.join(out, "db", "%d_results.db" % p.pid), [p], convenience=False)


def differential(out, seed, count):
    rng = random.Random(seed)
    processes = []
    for index in range(rng.randint(1, 3)):
        p = Process(index)
        for name in random_names(rng, rng.randint(1, 12)):
            p.symbol(name)
        t = BASE_TIMESTAMP + rng.randrange(10 ** 9)
        for _ in range(count):
            kid = rng.choice(p.symbols)[0]
            ns = rng.choice([1000, 2000, 2000, rng.randint(1, 10 ** 6), rng.randint(0, 10 ** 10)])
            p.dispatch(kid, t, t + ns)
            t += ns + rng.randint(0, 5000)
        processes.append(p)
    write_both(out, processes)


def bench(out, count):
    """count dispatches of about 200 kernels, one process."""
    rng = random.Random(7)
    p = Process(0)
    for i in range(200):
        p.symbol("void at::native::vectorized_elementwise_kernel<%d, at::native::Functor_%d<float>, "
                 "at::detail::Array<char*, %d> >(int, at::detail::Array<char*, %d>)"
                 % (rng.choice([2, 4, 8]), i, rng.randint(2, 4), rng.randint(2, 4)))
    t = BASE_TIMESTAMP
    for _ in range(count):
        kid = rng.randint(1, 200)
        ns = rng.randint(1000, 200000)
        p.dispatch(kid, t, t + ns)
        t += ns + 500
    write_both(out, [p])


def main(argv):
    if len(argv) >= 2 and argv[0] == "fixtures":
        fixtures(argv[1])
    elif len(argv) >= 2 and argv[0] == "seeds":
        seeds(argv[1])
    elif len(argv) == 4 and argv[0] == "differential":
        differential(argv[1], int(argv[2]), int(argv[3]))
    elif len(argv) == 3 and argv[0] == "bench":
        bench(argv[1], int(argv[2]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
