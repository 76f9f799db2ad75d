#!/usr/bin/env python3
"""RADIUS between a CoovaChilli in its network namespace and the platform's FreeRADIUS.

The platform listens on loopback in the root namespace, which chilli's namespace has no route to,
and UDP (unlike the portal's HTTP, bridged through a Unix socket) needs a socket on each side.
This relay opens its chilli-side sockets inside the namespace (setns, then back) and relays:
  chilli -> <radius_ip>:1812|1813 (in the namespace)  ==>  <nas_ip> -> <server>:<auth|acct>
  the gateway service -> <nas_ip>:<coa_port> (root)     ==>  <radius_ip> -> <radius_ip>:3799
so FreeRADIUS sees the gateway at <nas_ip> (its registry address) and chilli sees its RADIUS
server as the sender of every Disconnect/CoA (chilli checks that). Answers go back to the
sender of the request they answer (by RADIUS identifier). Prints "ready" once listening; ends on
SIGTERM. Usage:
  radius-relay.py <netns path> <radius_ip> <nas_ip> <server> <auth> <acct> <coa_port> <chilli_coa_port>
"""
import ctypes
import os
import select
import signal
import socket
import sys

CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def setns(fd):
    if libc.setns(fd, CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), 'setns')


def udp(address, port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((address, port))
    return sock


def main():
    netns, radius_ip, nas_ip, server, auth, acct, coa_port, chilli_coa = sys.argv[1:9]
    root = os.open('/proc/self/ns/net', os.O_RDONLY)
    inside = os.open(netns, os.O_RDONLY)
    setns(inside)
    try:
        in_auth, in_acct, in_coa = udp(radius_ip, 1812), udp(radius_ip, 1813), udp(radius_ip, 0)
    finally:
        setns(root)
    out_auth, out_acct = udp(nas_ip, 0), udp(nas_ip, 0)
    coa_listen = udp(nas_ip, int(coa_port))
    # socket -> (where what it receives goes, through which socket); answers by identifier.
    forward = {
        in_auth: (out_auth, (server, int(auth))),
        in_acct: (out_acct, (server, int(acct))),
        coa_listen: (in_coa, (radius_ip, int(chilli_coa))),
    }
    back = {out_auth: in_auth, out_acct: in_acct, in_coa: coa_listen}
    senders = {}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print('ready', flush=True)
    sockets = list(forward) + list(back)
    while True:
        readable, _, _ = select.select(sockets, [], [])
        for sock in readable:
            data, sender = sock.recvfrom(4096)
            if len(data) < 20:
                continue
            if sock in forward:
                via, target = forward[sock]
                senders[(via, data[1])] = sender
                via.sendto(data, target)
            else:
                origin = senders.pop((sock, data[1]), None)
                if origin is not None:
                    back[sock].sendto(data, origin)


if __name__ == '__main__':
    main()
