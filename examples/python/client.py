#!/usr/bin/python3
"""A reference order-entry client in Python 3, from Debian packages only.

python3-pycryptodome gives keccak-256, python3-ecdsa the secp256k1 curve and python3-msgpack the
MessagePack of perp actions; EIP-712 encoding, signing with RFC 6979 and low-s, public-key
recovery, HTTP and JSON are written here with the standard library, with exact integers throughout
(nonces up to 2^64-1 never pass through a float).

    /usr/bin/python3 examples/python/client.py           the HTTP driver (oec check client --http)
    /usr/bin/python3 examples/python/client.py --jsonl   the signing protocol (oec check client)

Run it with /usr/bin/python3: the Debian modules live there, not in a pyenv or venv interpreter.
See docs/testee-protocol.md for both protocols.
"""
import hashlib
import json
import os
import sys
import time
import urllib.error
import urllib.request

import msgpack
from Cryptodome.Hash import keccak
from ecdsa import SECP256k1, SigningKey
from ecdsa.ellipticcurve import Point
from ecdsa.util import sigencode_strings

N = SECP256k1.order
P = SECP256k1.curve.p()
G = SECP256k1.generator
ZERO_ADDRESS = "0x" + "00" * 20


def keccak256(data: bytes) -> bytes:
    return keccak.new(digest_bits=256, data=data).digest()


# ---------------------------------------------------------------- EIP-712

PLACE_ORDER = [("wallet", "address"), ("symbol", "string"), ("side", "string"), ("size", "string"),
               ("price", "string"), ("tif", "string"), ("route", "string"), ("clientId", "string"),
               ("nonce", "uint64")]
TYPES = {
    "PlaceOrder": PLACE_ORDER,
    "CancelOrder": [("wallet", "address"), ("orderId", "string"), ("nonce", "uint64")],
    "CancelOrderByClientId": [("wallet", "address"), ("clientId", "string"), ("nonce", "uint64")],
    "ApproveAgent": [("agent", "address"), ("nonce", "uint64")],
    "RevokeAgent": [("agent", "address"), ("nonce", "uint64")],
}
DOMAIN_FIELDS = [("name", "string"), ("version", "string"), ("chainId", "uint256"),
                 ("verifyingContract", "address"), ("salt", "bytes32")]
BODY_NAME = {"clientId": "client_id", "orderId": "order_id"}
OPTIONS_DOMAIN = {"name": "Service", "version": "1", "chainId": 999, "verifyingContract": ZERO_ADDRESS}

# Perp actions are signed the way the perpetuals venue signs its L1 actions: an Agent struct under
# its own domain, whose connectionId is the hash of the msgpack-encoded action.
PERP_DOMAIN = {"name": "Exchange", "version": "1", "chainId": 1337, "verifyingContract": ZERO_ADDRESS}
AGENT = [("source", "string"), ("connectionId", "bytes32")]
AGENT_FIELDS = ("action", "nonce", "vaultAddress", "expiresAfter", "isMainnet")


def fields_for(kind, message):
    """PlaceOrder without route is its own struct: route is then left out of the signature too."""
    if kind == "PlaceOrder" and "route" not in message:
        return [f for f in PLACE_ORDER if f[0] != "route"]
    return TYPES[kind]


def encode_value(typ, value) -> bytes:
    if typ == "string":
        return keccak256(value.encode("utf-8"))
    if typ == "address":
        return bytes(12) + bytes.fromhex(value[2:])
    if typ == "bytes32":
        return bytes.fromhex(value[2:])
    if typ.startswith("uint"):
        return int(value).to_bytes(32, "big")
    raise ValueError("unsupported type " + typ)


def hash_struct(name, fields, values) -> bytes:
    type_string = name + "(" + ",".join(t + " " + n for n, t in fields) + ")"
    data = keccak256(type_string.encode())
    for n, t in fields:
        data += encode_value(t, values[n])
    return keccak256(data)


def typed_digest(domain, struct_hash: bytes) -> bytes:
    domain_fields = [f for f in DOMAIN_FIELDS if f[0] in domain]
    return keccak256(b"\x19\x01" + hash_struct("EIP712Domain", domain_fields, domain) + struct_hash)


def digest_of(kind, message, domain) -> bytes:
    return typed_digest(domain, hash_struct(kind, fields_for(kind, message), message))


def action_hash(action, nonce, vault, expires_after) -> bytes:
    """keccak256(msgpack(action) || nonce u64 BE || 0x00 | 0x01 vault [|| 0x00 expiresAfter u64 BE]).

    msgpack.packb writes integers in their smallest form and keeps the keys in the order given;
    json.loads keeps both, so the action hashes exactly as it was written."""
    data = msgpack.packb(action, use_bin_type=True) + nonce.to_bytes(8, "big")
    data += b"\x00" if vault is None else b"\x01" + bytes.fromhex(vault[2:])
    if expires_after is not None:
        data += b"\x00" + expires_after.to_bytes(8, "big")
    return keccak256(data)


def agent_digest(message, domain):
    """(connectionId, digest) of a perp action: Agent{source: a mainnet | b testnet, connectionId}."""
    connection_id = action_hash(message["action"], message["nonce"], message.get("vaultAddress"), message.get("expiresAfter"))
    agent = {"source": "a" if message["isMainnet"] else "b", "connectionId": "0x" + connection_id.hex()}
    return connection_id, typed_digest(domain, hash_struct("Agent", AGENT, agent))


# ---------------------------------------------------------------- secp256k1

def address_of_point(point) -> str:
    raw = point.x().to_bytes(32, "big") + point.y().to_bytes(32, "big")
    return "0x" + keccak256(raw)[12:].hex()


def sign_digest(digest: bytes, key_hex: str) -> str:
    """65-byte r || s || v, RFC 6979 nonce, low-s (the same signature every correct signer gives)."""
    sk = SigningKey.from_string(bytes.fromhex(key_hex[2:]), curve=SECP256k1, hashfunc=hashlib.sha256)
    r_bytes, s_bytes = sk.sign_digest_deterministic(digest, hashfunc=hashlib.sha256, sigencode=sigencode_strings)
    r, s = int.from_bytes(r_bytes, "big"), int.from_bytes(s_bytes, "big")
    if s > N // 2:
        s = N - s
    me = address_of_point(sk.get_verifying_key().pubkey.point)
    for recid in (0, 1):
        if recover(digest, r, s, recid) == me:
            return "0x" + r.to_bytes(32, "big").hex() + s.to_bytes(32, "big").hex() + format(27 + recid, "02x")
    raise ValueError("no recovery id recovers the signer")


def recover(digest: bytes, r: int, s: int, recid: int):
    """The signer's address, or None (r, s out of range, or no point with that x)."""
    if not (0 < r < N and 0 < s < N):
        return None
    y_squared = (pow(r, 3, P) + 7) % P
    y = pow(y_squared, (P + 1) // 4, P)
    if y * y % P != y_squared:
        return None
    if y % 2 != recid:
        y = P - y
    big_r = Point(SECP256k1.curve, r, y, N)
    e = int.from_bytes(digest, "big")
    r_inv = pow(r, -1, N)
    q = big_r * (s * r_inv % N) + G * ((-e * r_inv) % N)
    return address_of_point(q)


def body_text(kind, message, signature) -> str:
    body = {BODY_NAME.get(n, n): message[n] for n, _ in fields_for(kind, message)}
    body["signature"] = signature
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------- the HTTP driver

RETRYABLE = {429, 503}


def send_once(method, url, body):
    """(status, headers, parsed body) of one request; raises OSError when no answer came."""
    req = urllib.request.Request(url, data=body.encode(), method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=15) as res:
            return res.status, res.headers, res.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def with_retry(method, url, body, attempts=6, base_s=0.25):
    """Retry on 429, 503 and dropped connections: Retry-After, plus a backoff that grows per try."""
    last = None
    for attempt in range(attempts):
        wait = base_s * 2 ** attempt
        try:
            last = send_once(method, url, body)
            if last[0] not in RETRYABLE:
                return last
            retry_after = last[1].get("Retry-After")
            if retry_after and retry_after.isdigit():
                wait += int(retry_after)
        except (OSError, urllib.error.URLError, ConnectionError):
            pass  # no answer: the same signed request (same nonce) may be sent again
        if attempt < attempts - 1:
            time.sleep(wait)
    return last


def driver():
    base_url = os.environ["OEC_BASE_URL"]
    key = os.environ["OEC_PRIVATE_KEY"]
    domain = {**OPTIONS_DOMAIN, "name": os.environ.get("OEC_DOMAIN_NAME", "Service"), "chainId": int(os.environ.get("OEC_CHAIN_ID", "999"))}
    wallet = address_of_point(SigningKey.from_string(bytes.fromhex(key[2:]), curve=SECP256k1).get_verifying_key().pubkey.point)
    nonce = time.time_ns() // 1000  # increasing: microseconds since the epoch, then +1 per request

    for line in sys.stdin:
        if not line.strip():
            continue
        task = json.loads(line)
        nonce += 1
        if task["action"] == "place":
            o = task["order"]
            # The API documentation: send route now (omitting it is deprecated).
            message = {"wallet": wallet, "symbol": o["symbol"], "side": o["side"], "size": o["size"], "price": o["price"],
                       "tif": o["tif"], "route": o.get("route", "best_execution"), "clientId": o["client_id"], "nonce": nonce}
            kind, method = "PlaceOrder", "POST"
        elif "order_id" in task:
            kind, method, message = "CancelOrder", "DELETE", {"wallet": wallet, "orderId": task["order_id"], "nonce": nonce}
        else:
            kind, method, message = "CancelOrderByClientId", "DELETE", {"wallet": wallet, "clientId": task["client_id"], "nonce": nonce}
        body = body_text(kind, message, sign_digest(digest_of(kind, message, domain), key))
        got = with_retry(method, base_url + "/order", body)
        answer = {"id": task["id"], "http_status": None, "code": None, "order_status": None}
        if got is not None:
            status, _, raw = got
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = None
            parsed = parsed if isinstance(parsed, dict) else {}
            answer["http_status"] = status
            # Errors branch on `code` (unknown ones included); outcomes on `status`; `reason` is only shown.
            if status >= 400 and isinstance(parsed.get("code"), str):
                answer["code"] = parsed["code"]
            if status == 200 and isinstance(parsed.get("status"), str):
                answer["order_status"] = parsed["status"]
            for extra in ("order_id", "reason"):
                if isinstance(parsed.get(extra), str):
                    answer[extra] = parsed[extra]
        print(json.dumps(answer), flush=True)


# ---------------------------------------------------------------- the signing protocol

def read_uint64(name, v):
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 2 ** 64:
        raise ValueError(name + " must be an integer in 0..2^64-1")
    return v


def is_address(v):
    return isinstance(v, str) and len(v) == 42 and v.startswith("0x") and all(c in "0123456789abcdefABCDEF" for c in v[2:])


def read_agent_message(raw):
    extra = set(raw) - set(AGENT_FIELDS)
    if extra:
        raise ValueError("unknown field " + sorted(extra)[0])
    if "action" not in raw:
        raise ValueError("action is missing")
    if not isinstance(raw.get("isMainnet"), bool):
        raise ValueError("isMainnet must be a boolean")
    vault = raw.get("vaultAddress")
    if vault is not None and not is_address(vault):
        raise ValueError("vaultAddress must be an address or null")
    expires = raw.get("expiresAfter")
    return {"action": raw["action"], "nonce": read_uint64("nonce", raw.get("nonce")), "vaultAddress": vault,
            "expiresAfter": None if expires is None else read_uint64("expiresAfter", expires), "isMainnet": raw["isMainnet"]}


def read_message(kind, raw):
    if not isinstance(raw, dict):
        raise ValueError("message must be an object")
    if kind == "Agent":
        return read_agent_message(raw)
    fields = fields_for(kind, raw)
    out = {}
    for name, typ in fields:
        v = raw.get(name)
        if typ == "uint64":
            read_uint64(name, v)
        elif not isinstance(v, str):
            raise ValueError(name + " must be a string")
        elif typ == "address" and not is_address(v):
            raise ValueError(name + " must be an address")
        out[name] = v
    extra = set(raw) - {n for n, _ in fields}
    if extra:
        raise ValueError("unknown field " + sorted(extra)[0])
    return out


def verify(digest, signature):
    """The recovered signer; refuses what a strict verifier refuses (bad length, bad v, high-s)."""
    if not isinstance(signature, str) or len(signature) != 132 or not signature.startswith("0x"):
        raise ValueError("malformed signature")
    try:
        raw = bytes.fromhex(signature[2:])
    except ValueError:
        raise ValueError("malformed signature")
    r, s, v = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:64], "big"), raw[64]
    if v in (0, 1):
        v += 27
    if v not in (27, 28):
        raise ValueError("bad v")
    if s > N // 2:
        raise ValueError("high-s signature")
    signer = recover(digest, r, s, v - 27)
    if signer is None:
        raise ValueError("unrecoverable")
    return signer


def answer_request(req):
    kind = req.get("kind")
    if kind not in TYPES and kind != "Agent":
        raise ValueError("unsupported kind " + str(kind))
    # A domain in the request replaces the default whole.
    domain = req.get("domain") or (PERP_DOMAIN if kind == "Agent" else OPTIONS_DOMAIN)
    message = read_message(kind, req.get("message"))
    connection_id, digest = agent_digest(message, domain) if kind == "Agent" else (None, digest_of(kind, message, domain))
    if req.get("op") == "sign":
        key = req.get("privateKey")
        if not isinstance(key, str) or len(key) != 66 or not key.startswith("0x"):
            raise ValueError("privateKey must be 32 bytes of hex")
        signature = sign_digest(digest, key)
        if kind == "Agent":
            # The venue's request carries the signature as {r, s, v}; the protocol asks for both forms.
            return {"connectionId": "0x" + connection_id.hex(), "digest": "0x" + digest.hex(), "signature": signature,
                    "r": signature[:66], "s": "0x" + signature[66:130], "v": int(signature[130:], 16)}
        return {"digest": "0x" + digest.hex(), "signature": signature, "body": body_text(kind, message, signature)}
    if req.get("op") == "verify":
        try:
            return {"digest": "0x" + digest.hex(), "signer": verify(digest, req.get("signature"))}
        except ValueError as err:
            return {"digest": "0x" + digest.hex(), "signer": None, "error": str(err)}
    raise ValueError("unknown op " + str(req.get("op")))


def signing_protocol():
    for line in sys.stdin:
        if not line.strip():
            continue
        req_id = None
        try:
            req = json.loads(line)
            req_id = req.get("id")
            out = {"id": req_id, **answer_request(req)}
        except (ValueError, KeyError, TypeError) as err:
            out = {"id": req_id, "error": str(err)}
        print(json.dumps(out, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    signing_protocol() if "--jsonl" in sys.argv[1:] else driver()
