# Authoring script for assets/herc/biped.json: python3 crates/herc/tools/gen_biped.py assets/herc/biped.json
#
# The sample is timed for the viewer: at 1x a clock step of 40 ms advances 31 animation
# ticks (H19), so a walk cycle of 800 ticks lasts about a second. With
# --conformance-timing the script writes the original, short timing (a walk cycle of
# 128 ticks) that the frozen copies under crates/herc/tests/ keep, because their
# committed traces were made with it:
#   python3 crates/herc/tools/gen_biped.py --conformance-timing crates/herc/tests/conformance/assets/biped.json
import json
import sys
CONFORMANCE = "--conformance-timing" in sys.argv[1:]
OUT = [a for a in sys.argv[1:] if not a.startswith("--")][0]
# Viewer timing: (sequence, original frame durations) -> retimed durations, and the
# transitions' durations scaled alike (about 6.25x: the walk goes from 128 to 800).
RETIMED = {
    "idle": [300, 300],
    "walk": [125, 150, 125, 125, 150, 125],
    "run": [120, 120, 120, 120],
    "turn": [150, 150, 150, 150],
    "stop": [150, 150, 225],
    "twist": [400, 400, 400, 400],
    "pitch": [400, 400, 400, 400],
    "idle_reverse": [300, 300],
}
RETIMED_TRANSITION = {10: 62, 12: 75, 14: 88, 16: 100, 18: 112, 20: 125}
nodes = [
 ("root_motion",-1,[0,0,0,0,0,0]),
 ("pelvis",-1,[0,0,0,0,0,420]),
 ("torso",1,[0,0,0,0,0,120]),
 ("cockpit",2,[0,0,0,0,60,160]),
 ("l_upper_arm",2,[0,0,0,-150,0,100]),
 ("l_forearm",4,[0,0,0,0,0,-90]),
 ("r_upper_arm",2,[0,0,0,150,0,100]),
 ("r_forearm",6,[0,0,0,0,0,-90]),
 ("l_thigh",1,[0,0,0,-70,0,-20]),
 ("l_shin",8,[0,0,0,0,0,-190]),
 ("l_foot",9,[0,0,0,0,20,-190]),
 ("r_thigh",1,[0,0,0,70,0,-20]),
 ("r_shin",11,[0,0,0,0,0,-190]),
 ("r_foot",12,[0,0,0,0,20,-190]),
 ("gun_mount",2,[0,0,0,0,40,130]),
]
pool=[]
def K(k):
    k=list(k)
    assert len(k)==6 and all(-32768<=v<=32767 for v in k), k
    if k in pool: return pool.index(k)
    pool.append(k); return len(pool)-1
K([0,0,0,0,0,0])
for n in nodes: K(n[2])
rest={n[0]:n[2] for n in nodes}
idx={n[0]:i for i,n in enumerate(nodes)}
LOCO=["root_motion","pelvis","l_thigh","l_shin","l_foot","r_thigh","r_shin","r_foot","l_upper_arm","r_upper_arm"]
def pose(g, pelvis_z=0, pelvis_rz=0, lt=0, ls=0, lf=0, rt=0, rs=0, rf=0, la=0, ra=0):
    r=rest
    return [g,
      [0,0,pelvis_rz]+r["pelvis"][3:5]+[r["pelvis"][5]+pelvis_z],
      [lt,0,0]+r["l_thigh"][3:], [ls,0,0]+r["l_shin"][3:], [lf,0,0]+r["l_foot"][3:],
      [rt,0,0]+r["r_thigh"][3:], [rs,0,0]+r["r_shin"][3:], [rf,0,0]+r["r_foot"][3:],
      [la,0,0]+r["l_upper_arm"][3:], [ra,0,0]+r["r_upper_arm"][3:]]
Z=[0,0,0,0,0,0]
seqs=[]
def seq(name, cls, prio, ground, cols, frames):
    if not CONFORMANCE:
        assert len(RETIMED[name]) == len(frames), name
        frames = [(d, keys) for d, (_, keys) in zip(RETIMED[name], frames)]
    seqs.append(dict(name=name, cls=cls, prio=prio, ground=ground, cols=cols, frames=frames))
# frames: (duration, [keyframes per column])
seq("idle","cyclic",96,False,LOCO,[
  (60, pose(Z, pelvis_z=0, la=300, ra=300)),
  (60, pose(Z, pelvis_z=-12, la=420, ra=420, ls=200, rs=200, lt=-100, rt=-100)),
])
walk_g=[150,240,170,150,240,170]
wl=[(-3000,1200,800),(-1000,2600,-300),(2000,400,-1500),(3000,600,-600),(1000,200,200),(-1500,900,700)]
frames=[]
for i,(d,g) in enumerate(zip([20,24,20,20,24,20],walk_g)):
    a=wl[i]; b=wl[(i+3)%6]
    frames.append((d, pose([0,0,0,0,g,0], pelvis_z=[0,-20,-8,0,-20,-8][i], pelvis_rz=[-300,0,300,300,0,-300][i],
        lt=a[0], ls=a[1], lf=a[2], rt=b[0], rs=b[1], rf=b[2], la=-b[0]//2, ra=-a[0]//2)))
seq("walk","cyclic",0,True,LOCO,frames)
frames=[]
for i,(d,g) in enumerate(zip([16,16,16,16],[300,420,300,420])):
    a=[(-5000,2500,1200),(1000,4200,-800),(4500,800,-2000),(-1000,3000,400)][i]
    b=[(-5000,2500,1200),(1000,4200,-800),(4500,800,-2000),(-1000,3000,400)][(i+2)%4]
    frames.append((d, pose([0,0,0,0,g,0], pelvis_z=[-10,-40,-10,-40][i], lt=a[0], ls=a[1], lf=a[2], rt=b[0], rs=b[1], rf=b[2], la=-b[0]//2, ra=-a[0]//2)))
seq("run","cyclic",0,True,LOCO,frames)
frames=[]
for i in range(4):
    frames.append((20, pose([0,0,400,0,0,0], pelvis_rz=[0,-200,0,200][i], lt=[-800,0,0,0][i], ls=[1200,0,0,0][i], rt=[0,0,-800,0][i], rs=[0,0,1200,0][i])))
seq("turn","cyclic",0,True,LOCO,frames)
seq("stop","one_shot",0,True,LOCO,[
  (20, pose([0,0,0,0,120,0], pelvis_z=-30, lt=1500, ls=800, rt=-1200, rs=1500)),
  (20, pose([0,0,0,0,60,0], pelvis_z=-60, lt=800, ls=1600, rt=-600, rs=1800, la=600, ra=600)),
  (30, pose([0,0,0,0,0,0], pelvis_z=-80, lt=-600, ls=2400, lf=-1200, rt=-600, rs=2400, rf=-1200, la=900, ra=900)),
])
# twist: one full turn of the torso over the whole sequence
seq("twist","cyclic",1,False,["root_motion","torso"],[
  (64,[Z,[0,0,0]+rest["torso"][3:]]), (64,[Z,[0,0,16384]+rest["torso"][3:]]),
  (64,[Z,[0,0,-32768]+rest["torso"][3:]]), (64,[Z,[0,0,-16384]+rest["torso"][3:]]),
])
seq("pitch","cyclic",2,False,["root_motion","gun_mount","cockpit"],[
  (64,[Z,[0,0,0]+rest["gun_mount"][3:],[0,0,0]+rest["cockpit"][3:]]),
  (64,[Z,[16384,0,0]+rest["gun_mount"][3:],[1200,0,0]+rest["cockpit"][3:]]),
  (64,[Z,[-32768,0,0]+rest["gun_mount"][3:],[0,0,0]+rest["cockpit"][3:]]),
  (64,[Z,[-16384,0,0]+rest["gun_mount"][3:],[-1200,0,0]+rest["cockpit"][3:]]),
])
seq("idle_reverse","cyclic",96,False,LOCO,[
  (60, pose(Z, pelvis_z=0, la=-300, ra=-300)),
  (60, pose(Z, pelvis_z=-12, la=-420, ra=-420, ls=200, rs=200, lt=100, rt=100)),
])
S={s["name"]:i for i,s in enumerate(seqs)}
# transitions per (seq, frame): list of (dest_seq, dest_frame, duration, movement key)
tr={}
def T(src,f,dst,df,dur,move):
    if not CONFORMANCE:
        dur = RETIMED_TRANSITION[dur]
    tr.setdefault((S[src],f),[]).append((S[dst],df,dur,K(move)))
T("idle",0,"walk",0,16,[0,0,0,0,60,0]); T("idle",0,"turn",0,16,[0,0,100,0,0,0])
T("idle",1,"walk",0,16,[0,0,0,0,60,0]); T("idle",1,"turn",0,16,[0,0,100,0,0,0]); T("idle",1,"stop",2,12,[0,0,0,0,0,0])
T("walk",2,"run",0,12,[0,0,0,0,200,0]); T("walk",2,"idle",0,18,[0,0,0,0,80,0]); T("walk",2,"stop",0,10,[0,0,0,0,100,0])
T("walk",3,"idle_reverse",0,18,[0,0,0,0,-80,0])
T("walk",5,"run",0,12,[0,0,0,0,200,0]); T("walk",5,"idle",0,18,[0,0,0,0,80,0]); T("walk",5,"stop",0,10,[0,0,0,0,100,0])
T("run",1,"walk",3,12,[0,0,0,0,250,0]); T("run",3,"walk",0,12,[0,0,0,0,250,0])
T("turn",1,"idle",0,14,[0,0,150,0,0,0]); T("turn",1,"idle_reverse",0,14,[0,0,150,0,0,0])
T("turn",3,"idle",1,14,[0,0,150,0,0,0]); T("turn",3,"idle_reverse",0,14,[0,0,150,0,0,0])
T("stop",2,"idle",0,20,[0,0,0,0,0,0]); T("stop",2,"walk",0,16,[0,0,0,0,60,0])
T("idle_reverse",0,"walk",3,16,[0,0,0,0,-60,0]); T("idle_reverse",0,"turn",0,16,[0,0,-100,0,0,0])
T("idle_reverse",1,"walk",0,16,[0,0,0,0,-60,0]); T("idle_reverse",1,"turn",2,16,[0,0,-100,0,0,0])
transitions=[]
out_seqs=[]
for si,s in enumerate(seqs):
    cols=[idx[c] for c in s["cols"]]
    fr=[]
    for fi,(d,keys) in enumerate(s["frames"]):
        lst=tr.get((si,fi),[])
        first=len(transitions) if lst else 0
        for (ds,df,dd,kk) in lst:
            transitions.append(dict(duration=dd,dest_seq=ds,dest_frame=df,key=kk))
        assert len(keys)==len(cols)
        fr.append(dict(duration=d,first_transition=first,transition_count=len(lst),keys=[K(k) for k in keys]))
    out_seqs.append({"name":s["name"],"class":s["cls"],"priority":s["prio"],"ground":s["ground"],"columns":cols,"frames":fr})
asset={"name":"biped","note":"Sample HERC authored for retroanim (no game data). Sequences: 0 idle (step-off forward, priority 96), 1 walk, 2 run, 3 turn, 4 stop (one-shot), 5 twist, 6 pitch, 7 idle_reverse (step-off reverse, priority 96).",
 "nodes":[{"name":n[0],"parent":n[1],"rest":K(n[2])} for n in nodes],
 "keyframes":pool,"sequences":out_seqs,"transitions":transitions}
def dump(a):
    # one keyframe / frame per line: readable and diffable
    s=json.dumps(a,separators=(", ",": "))
    return s
txt='{\n "name": "biped",\n "note": '+json.dumps(asset["note"])+',\n "nodes": [\n'
txt+=',\n'.join('  '+json.dumps(n) for n in asset["nodes"])+'\n ],\n "keyframes": [\n'
txt+=',\n'.join('  '+json.dumps(k) for k in pool)+'\n ],\n "sequences": [\n'
parts=[]
for s in out_seqs:
    h={k:v for k,v in s.items() if k!="frames"}
    t='  '+json.dumps(h)[:-1]+', "frames": [\n'+',\n'.join('    '+json.dumps(f) for f in s["frames"])+'\n  ]}'
    parts.append(t)
txt+=',\n'.join(parts)+'\n ],\n "transitions": [\n'+',\n'.join('  '+json.dumps(t) for t in transitions)+'\n ]\n}\n'
json.loads(txt)
open(OUT,'w').write(txt)
print(len(pool),"keyframes",len(transitions),"transitions")
