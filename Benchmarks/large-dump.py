#!/usr/bin/env python3
"""Writes a large synthetic trace dump, to measure how streams-trace reads big files.

Usage: Benchmarks/large-dump.py SCREENS OUT DELIVERIES
  SCREENS     screens of 60 nodes each (a subject and a chain of 59 maps), with their edges and
              subscriptions
  DELIVERIES  deliveries, each with a value; one root in six, the others caused by the previous
Guides/Performance.md ("Reading in bounded memory") used 200 and 1500 screens with 200,000 and
1,500,000 deliveries: /usr/bin/time -f %M swift-build-release/streams-trace summary OUT.
"""
import sys, random
random.seed(26)
screens=int(sys.argv[1]); out=sys.argv[2]
nodes=[];edges=[];subs=[];dels=[]
nid=0
f=open(out,'w')
f.write('{"format":"streams-trace","version":1,\n"nodes":[')
first=True
N=screens*60
for i in range(1,N+1):
  up = [i-1] if i%60 != 1 else []
  line='{"id":%d,"kind":"%s","role":"%s","file":"App/Screen%d/Screen%dViewModel.swift","line":%d,"owner":"Screen%dViewModel","upstreams":%s,"controlUpstreams":[],"subscriptionCount":1,"eventCount":%d,"recentValues":["value %d","value %d"]}' % (i, "PublishSubject" if i%60==1 else "map", "subject" if i%60==1 else "operator", i//60, i//60, i%300+1, i//60, str(up).replace(' ',''), i%17, i, i+1)
  f.write(('\n' if first else ',\n')+line); first=False
f.write('\n],\n"edges":[')
first=True
for i in range(2,N+1):
  if i%60==1: continue
  for kind in ("subscription","emission"):
    f.write(('\n' if first else ',\n')+'{"from":%d,"to":%d,"kind":"%s","count":3,"live":%d,"firstTime":1000,"lastTime":%d}'%(i-1,i,kind,1 if kind=="subscription" else 0, 1000+i)); first=False
f.write('\n],\n"subscriptions":[')
first=True
for i in range(2,N+1):
  if i%60==1: continue
  f.write(('\n' if first else ',\n')+'{"id":%d,"node":%d,"subscriber":%d,"owner":"Screen%dViewModel","ownerGone":false,"file":"App/Screen%d/Screen%dViewModel.swift","line":%d}'%(i,i-1,i,i//60,i//60,i//60,i%300+1)); first=False
f.write('\n],\n"deliveries":[')
first=True
D=int(sys.argv[3])
for d in range(1,D+1):
  i=random.randint(2,N)
  if i%60==1: i+=1
  f.write(('\n' if first else ',\n')+'{"id":%d,"from":%d,"to":%d,"event":"next",%s"hop":"direct","thread":1,"time":%d,"value":"element number %d of the run"}'%(d,i-1,i,("\"cause\":%d," % (d-1)) if d%6 != 1 else "",d*1000,d)); first=False
f.write('\n]}')
f.close()
