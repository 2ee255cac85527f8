#!/bin/sh
# Starts a node or a Sentinel of the queue's Redis: a primary, its replica and three Sentinels that promote the replica
# when the primary is gone (deploy/sentinel.conf). `make cluster` (deploy/stacks/cluster.py), compose and
# Kubernetes run this same script, so a node or Sentinel started again finds its place the same way everywhere.
#
#   redis-queue.sh node HOST PORT DIR [redis-server options ...]
#       A node, known to the others as HOST:PORT, its data in DIR: the replica of the primary the Sentinels name, or
#       the primary when they name this node. When no Sentinel answers (the first start of all), the primary if it is
#       FIRST, else FIRST's replica. It runs a copy of REDIS_CONF in DIR, made afresh at each start: the Sentinels
#       rewrite the file of a node they reconfigure (CONFIG REWRITE), and REDIS_CONF is the project's own.
#   redis-queue.sh sentinel HOST PORT DIR [redis-server options ...]
#       A Sentinel, known to the others as HOST:PORT, its file in DIR (a Sentinel rewrites it as it learns: kept, it
#       knows the current primary when it starts again). A first start watches the primary the other Sentinels
#       name, else FIRST.
#
# Environment: FIRST (host:port of the first primary), SENTINELS (host:port ..., separated by spaces), REDIS_CONF
# (deploy/redis.conf), SENTINEL_CONF (deploy/sentinel.conf), REDIS_SERVER and REDIS_CLI (default: redis-server and
# redis-cli on the PATH), REDIS_PASSWORD (when the nodes and the Sentinels require one).
set -eu

MASTER=mythos-queue  # the name deploy/sentinel.conf watches the primary by (QUEUE_SENTINEL_MASTER)
server=${REDIS_SERVER:-redis-server}
cli=${REDIS_CLI:-redis-cli}
if [ -n "${REDIS_PASSWORD:-}" ]; then export REDISCLI_AUTH="$REDIS_PASSWORD"; fi

primary() {
    # "host port" of the primary the first Sentinel that knows it names; FIRST's when none does.
    for sentinel in $SENTINELS; do
        found=$(timeout 3 "$cli" -h "${sentinel%:*}" -p "${sentinel##*:}" --raw \
                SENTINEL get-master-addr-by-name "$MASTER" 2>/dev/null | tr '\n' ' ') || continue
        # shellcheck disable=SC2086 # split the answer into its two words
        set -- $found
        if [ "$#" -eq 2 ]; then
            echo "$1 $2"
            return
        fi
    done
    echo "${FIRST%:*} ${FIRST##*:}"
}

role=$1
host=$2
port=$3
dir=$4
shift 4
case "$role" in
node)
    mkdir -p "$dir"
    cp "$REDIS_CONF" "$dir/redis-queue.conf"
    at=$(primary)
    if [ -n "${REDIS_PASSWORD:-}" ]; then
        set -- --requirepass "$REDIS_PASSWORD" --masterauth "$REDIS_PASSWORD" "$@"
    fi
    if [ "$at" != "$host $port" ]; then
        # shellcheck disable=SC2086 # "host port": two arguments
        set -- --replicaof $at "$@"
    fi
    exec "$server" "$dir/redis-queue.conf" --port "$port" --dir "$dir" --replica-announce-ip "$host" \
        --replica-announce-port "$port" "$@"
    ;;
sentinel)
    conf=$dir/sentinel.conf
    if [ ! -s "$conf" ]; then
        at=$(primary)
        mkdir -p "$dir"
        {
            echo "port $port"
            echo "sentinel announce-ip $host"
            echo "sentinel announce-port $port"
            sed "s/^sentinel monitor $MASTER .*/sentinel monitor $MASTER $at 2/" "$SENTINEL_CONF"
            if [ -n "${REDIS_PASSWORD:-}" ]; then
                echo "requirepass $REDIS_PASSWORD"
                echo "sentinel auth-pass $MASTER $REDIS_PASSWORD"
            fi
        } > "$conf.new"
        mv "$conf.new" "$conf"
    fi
    exec "$server" "$conf" --sentinel --dir "$dir" "$@"
    ;;
*)
    echo "usage: redis-queue.sh node|sentinel HOST PORT DIR [redis-server options ...]" >&2
    exit 2
    ;;
esac
