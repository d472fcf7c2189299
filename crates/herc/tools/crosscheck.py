# Independent second model of the herc conformance format, written from the rule text
# (M3-M9, H1-H19, H28, H29) in Python, used to cross-check every committed trace:
#   python3 crates/herc/tools/crosscheck.py crates/herc/tests/conformance
# Independent cross-check of the herc conformance traces, written from the rule text.
import math, json, sys, os
def i16(x): x&=0xffff; return x-0x10000 if x&0x8000 else x
def i32(x): x&=0xffffffff; return x-(1<<32) if x&0x80000000 else x
def cdiv(a,b):
    q=abs(a)//abs(b)
    return q if (a>=0)==(b>=0) else -q
COS=[math.floor(math.cos(i*2*math.pi/4096)*16384+0.5) for i in range(1025)]
assert COS[1024]==0
def C(a):
    k=(a>>4)+((a>>3)&1); k=abs(k)
    return COS[k] if k<1024 else -COS[2048-k]
def S(a): return C(i16(a-0x4000))
ATC=[math.floor(math.atan(i/512)*0x4000/(2*math.pi)+0.5)-4*i for i in range(513)]
def asin_e(v): return math.floor(math.asin(min(v/4096,1))*65536/(2*math.pi))
ASC=[asin_e(8*j) for j in range(449)]
ASF=[asin_e(0xe00+j) for j in range(513)]
def atan2(y,x):
    ax,ay,a=abs(x),abs(y),0
    if ay!=0 and ax<ay:
        i=(ax*0x200+(ay>>1))//ay; a=0x1000-((4*i+ATC[i]) if i else 0)
    elif ay!=0 and ax>=ay:
        i=(ay*0x200+(ax>>1))//ax; a=(4*i+ATC[i]) if i else 0
    if x<0: a=0x2000-a
    if y<0: a=0x4000-a
    return i16((a&0x3fff)<<2)
def asin(v):
    m=abs(v); k=(m>>2)+((m>>1)&1)
    r=ASC[(k>>3)+((k>>2)&1)] if k<0xe00 else ASF[k-0xe00]
    return i16(-r if v<0 else r)
ID=([16384,0,0,16384,0,0,0,0,16384],0,[0,0,0])
def r14(v): return i16((i32(v)+0x2000)>>14)
def from_euler(x,y,z):
    if x==0 and y==0:
        if z==0: return ID
        c,s=C(z),S(z)
        return ([c,s,i16(-s),c,0,0,0,0,16384],1,[0,0,0])
    kind=2 if x==0 else 3
    sx=S(x); m=[0]*9
    a=C(i16(y-z)); b=C(i16(z+y)); s=(a+b)>>1; d=(a-b)>>1
    m[0]=i16(s-r14(sx*d)); m[7]=i16(d-r14(sx*s))
    a=S(i16(y+z)); b=S(i16(z-y)); s=(a+b)>>1; d=(a-b)>>1
    m[1]=i16(r14(sx*d)+s); m[6]=i16(r14(sx*s)+d)
    m[3]=(C(i16(z+x))+C(i16(x-z)))>>1; m[8]=(C(i16(y+x))+C(i16(x-y)))>>1; m[5]=sx
    m[4]=(-(S(i16(y+x))+S(i16(y-x))))>>1
    m[2]=-((S(i16(z+x))+S(i16(z-x)))>>1)
    m=[i16(v) for v in m]
    return (m,kind,[0,0,0])
def wt(T,t): return (T[0],T[1],list(t))
def qq(v): return i32((v+0x2000)>>14)
def apply(T,p):
    m,k,t=T; px,py,pz=p
    return [i32(qq(px*m[0]+py*m[2]+pz*m[6])+t[0]),i32(qq(px*m[1]+py*m[3]+pz*m[7])+t[1]),i32(qq(px*m[4]+py*m[5]+pz*m[8])+t[2])]
def tpoint(T,p):
    m,k,t=T
    if k==0: return [i32(p[i]+t[i]) for i in range(3)]
    if k==1: return [i32(qq(p[0]*m[0]+p[1]*m[2])+t[0]),i32(qq(p[0]*m[1]+p[1]*m[3])+t[1]),i32(p[2]+t[2])]
    return apply(T,p)
def rotvec(T,p): return tpoint((T[0],T[1],[0,0,0]),p)
def inverse(T):
    m=list(T[0]); m[1],m[2]=m[2],m[1]; m[4],m[6]=m[6],m[4]; m[5],m[7]=m[7],m[5]
    U=(m,T[1],[0,0,0])
    return (m,T[1],rotvec(U,[i32(-v) for v in T[2]]))
def q(v): return i16((i32(v)+0x2000)>>14)
def concat(A,B):
    a,ak,at=A; b,bk,bt=B
    if ak==0: return (list(b),bk,apply(B,at))
    if bk==0: return (list(a),ak,[i32(at[i]+bt[i]) for i in range(3)])
    m=[0]*9
    if bk==1:
        m[0]=q(a[0]*b[0]+a[1]*b[2]); m[1]=q(a[0]*b[1]+a[1]*b[3]); m[2]=q(a[2]*b[0]+a[3]*b[2]); m[3]=q(a[2]*b[1]+a[3]*b[3])
        if ak==1: m[8]=16384; k=1
        else:
            m[6]=q(a[6]*b[0]+a[7]*b[2]); m[7]=q(a[6]*b[1]+a[7]*b[3]); m[4]=a[4]; m[5]=a[5]; m[8]=a[8]; k=2
        return (m,k,apply(B,at))
    if ak==1:
        m[0]=q(a[0]*b[0]+a[1]*b[2]); m[1]=q(a[0]*b[1]+a[1]*b[3]); m[2]=q(a[2]*b[0]+a[3]*b[2]); m[3]=q(a[2]*b[1]+a[3]*b[3])
        m[4]=q(a[0]*b[4]+a[1]*b[5]); m[5]=q(a[2]*b[4]+a[3]*b[5]); m[6]=b[6]; m[7]=b[7]; m[8]=b[8]
        return (m,2,apply(B,at))
    # full product in M layout: rows R=[[m0 m1 m4],[m2 m3 m5],[m6 m7 m8]]
    def rows(x): return [[x[0],x[1],x[4]],[x[2],x[3],x[5]],[x[6],x[7],x[8]]]
    RA,RB=rows(a),rows(b)
    R=[[q(sum(RA[i][k]*RB[k][j] for k in range(3))) for j in range(3)] for i in range(3)]
    m=[R[0][0],R[0][1],R[1][0],R[1][1],R[0][2],R[1][2],R[2][0],R[2][1],R[2][2]]
    return (m,2,apply(B,at))
def to_euler(T):
    m=T[0]; x=asin(m[5])
    if abs(x)==0x4000: return [x,0,atan2(m[1],m[0])]
    return [x,atan2(-m[4],m[8]),atan2(-m[2],m[3])]
def TJ(T): return {"m":list(T[0]),"kind":T[1],"t":list(T[2])}

class Asset:
    def __init__(s,d):
        s.nodes=d["nodes"]; s.keys=d["keyframes"]; s.seqs=d["sequences"]; s.trs=d["transitions"]
    def nxt(s,sq,f):
        q=s.seqs[sq]; n=len(q["frames"])
        if f<n-1: return f+1
        return 0 if q["class"]=="cyclic" else f
    def prv(s,sq,f):
        q=s.seqs[sq]; n=len(q["frames"])
        if f!=0: return f-1
        return n-1 if q["class"]=="cyclic" else 0
    def dur(s,sq,f): return s.seqs[sq]["frames"][f]["duration"]
    def key(s,sq,f,c): return s.seqs[sq]["frames"][f]["keys"][c]
    def col(s,sq,p):
        c=s.seqs[sq]["columns"]
        return c.index(p) if p in c else -1

class Th:
    def __init__(t,A):
        t.A=A; t.tr=[0,0,0,0]; t.g=[0]*6; t.ground=False; t.rate=0; t.root=ID
        t.set_seq(0,0,0); t.root=ID
    def set_seq(t,s,f,a):
        A=t.A; t.seq=t.nseq=s; t.frame=f; t.nframe=A.nxt(s,f); t.acc=a; t.dur=A.dur(s,f)
        t.loadg(s,f); t.tgt=[-1,-1,0]; t.scan=-1; t.flags=1
    def loadg(t,s,f):
        q=t.A.seqs[s]
        if not q["ground"]: t.ground=False; return
        t.g=list(t.A.keys[t.A.key(s,f,0)]); t.ground=True
    def setgk(t,k): t.g=list(t.A.keys[k]); t.ground=True
    def G(t): return wt(from_euler(*t.g[:3]),t.g[3:])
    def P(t):
        if t.dur==0: return ID
        sc=lambda c: cdiv(c*t.acc,t.dur)
        return wt(from_euler(i16(sc(t.g[0])),i16(sc(t.g[1])),i16(sc(t.g[2]))),[sc(c) for c in t.g[3:]])
    def read(t): return concat(t.P(),t.root) if t.ground else t.root
    def write(t,v): t.root = concat(inverse(t.P()),v) if t.ground else v
    def commit(t):
        if t.ground: t.root=concat(t.G(),t.root)
    def uncommit(t):
        if t.ground: t.root=concat(inverse(t.G()),t.root)
    def set_rate(t,r):
        p=t.rate; t.rate=r
        if (r<0)!=(p<0): t.request(*t.tgt)
    def request(t,s,f,fl):
        t.tgt=[s,f,fl]; t.flags&=~1
        if s!=-1 and (t.seq!=s or t.frame!=f or t.acc!=0): t.search(); return
        t.flags|=1; t.scan=-1
    def search(t):
        A=t.A; back=t.rate<0; start=t.frame if back else t.nframe; scan=start; s,f,_=t.tgt
        while True:
            fr=A.seqs[t.seq]["frames"][scan]
            first=fr.get("first_transition",0); cnt=fr.get("transition_count",0)
            for i in range(first,first+cnt):
                tr=A.trs[i]
                if tr["dest_seq"]!=s: continue
                t.tr=[s,tr["dest_frame"],tr["duration"],tr["key"]]
                if f==-1 or (not back and tr["dest_frame"]<f) or (back and tr["dest_frame"]>f) or (tr["dest_frame"]==f and t.acc==0):
                    t.scan=scan; return
            prev=scan; scan=A.prv(t.seq,scan) if back else A.nxt(t.seq,scan)
            if scan==prev or scan==start: break
        t.scan=-1
    def arrived(t): return t.seq==t.tgt[0] and (t.tgt[1]==-1 or t.frame==t.tgt[1])
    def advance(t,delta):
        A=t.A
        if (t.flags&1) and (t.tgt[2]&1): return
        step=i16((delta*t.rate)>>8)
        if step==0: return
        x=i16(t.acc+step)
        if x<0 and t.frame==0 and t.scan!=0 and A.prv(t.seq,0)==0: x=0
        if x==0:
            t.acc=0
            if t.flags&2:
                t.nseq=t.seq; t.nframe=A.nxt(t.seq,t.frame); t.dur=A.dur(t.seq,t.frame); t.flags&=~2; t.loadg(t.seq,t.frame)
            if t.arrived(): t.flags|=1
            return
        if 0<x<t.dur: t.acc=x; return
        if x>0:
            while x!=0 and t.dur<=x:
                t.commit(); t.seq=t.nseq; t.frame=t.nframe; x=i16(x-t.dur)
                if t.frame==t.scan:
                    t.nseq=t.tr[0]; t.nframe=t.tr[1]; t.dur=t.tr[2]; t.scan=-1; t.flags|=2; t.setgk(t.tr[3])
                else:
                    t.nframe=A.nxt(t.nseq,t.nframe); t.dur=A.dur(t.seq,t.frame)
                    if t.dur==0: x=0
                    t.flags&=~2; t.loadg(t.seq,t.frame)
                t.acc=0
                if t.arrived():
                    t.flags|=1
                    if t.tgt[2]&1: x=0
            t.acc=x; return
        while x<0:
            t.nseq=t.seq; t.nframe=t.frame
            if t.frame==t.scan:
                t.seq=t.tr[0]; t.frame=t.tr[1]; t.dur=t.tr[2]; t.scan=-1; t.flags|=2; t.setgk(t.tr[3])
            else:
                t.frame=A.prv(t.seq,t.frame); t.dur=A.dur(t.seq,t.frame); t.flags&=~2; t.loadg(t.seq,t.frame)
            t.uncommit()
            if -x<=t.dur: t.acc=x+t.dur; x=0
            else: t.acc=0; x=x+t.dur
            if t.arrived():
                t.flags|=1
                if t.tgt[2]&1: x=0; t.acc=0
    def seek(t,s,pos):
        A=t.A; durs=[fr["duration"] for fr in A.seqs[s]["frames"]]; total=sum(durs)
        rem=(pos*(total-1))>>14; f=0
        while f<len(durs)-1 and rem>=durs[f]: rem-=durs[f]; f+=1
        t.set_seq(s,f,rem)
    def prio(t): return t.A.seqs[t.seq]["priority"]
    def line(t):
        return {"seq":t.seq,"frame":t.frame,"next_seq":t.nseq,"next_frame":t.nframe,"scan_frame":t.scan,
          "tr_seq":t.tr[0],"tr_frame":t.tr[1],"tr_dur":t.tr[2],"tr_key":t.tr[3],"target_seq":t.tgt[0],"target_frame":t.tgt[1],
          "target_flags":t.tgt[2],"acc":t.acc,"dur":t.dur,"ground":t.ground,"g":t.g,"root":TJ(t.root),"rate":t.rate,"flags":t.flags}

def blend(a,b,qf):
    out=[]
    for i in range(6):
        if i<3:
            u=(b[i]-a[i])%65536; d=u-65536 if u>0x7fff else u
        else: d=i16(b[i]-a[i])
        out.append(i16(a[i]+i16((d*qf)>>10)))
    return out

class Sim:
    def __init__(s,A,setup):
        s.A=A; s.th=[]; s.slots=[]
        for t in setup["threads"]:
            s.add(t["seq"]); s.th[-1].set_rate(t.get("rate",0))
        o=setup.get("object",{}); s.euler=list(o.get("euler",[0,0,0])); s.pos=list(o.get("position",[0,0,0]))
    def add(s,seq):
        t=Th(s.A); t.set_seq(seq,0,0); s.th.append(t); s.slots.append(len(s.th)-1); s.sort()
    def sort(s):
        n=len(s.slots)
        for _ in range(n):
            for i in range(n-1):
                if s.th[s.slots[i]].prio()>s.th[s.slots[i+1]].prio(): s.slots[i],s.slots[i+1]=s.slots[i+1],s.slots[i]
    def pose(s,rr):
        A=s.A; N=len(A.nodes)
        loc=[list(A.keys[A.nodes[p]["rest"]]) for p in range(N)]
        for p in range(1,N):
            for sid in s.slots:
                t=s.th[sid]; c=A.col(t.seq,p)
                if c<0: continue
                i=A.key(t.seq,t.frame,c); cn=A.col(t.nseq,p)
                j=A.key(t.nseq,t.nframe,cn) if cn>=0 else A.nodes[p]["rest"]
                if i==j: loc[p]=list(A.keys[i])
                else:
                    qf=0 if t.dur==0 else (t.acc*1024+t.dur//2)//t.dur
                    loc[p]=blend(A.keys[i],A.keys[j],qf)
                break
        world=[None]*N
        def w(n):
            if world[n] is not None: return world[n]
            if n==0: world[n]=rr
            else:
                L=wt(from_euler(*loc[n][:3]),loc[n][3:]); par=A.nodes[n]["parent"]
                world[n]=L if par==-1 else concat(L,w(par))
            return world[n]
        for n in range(N): w(n)
        return loc,[TJ(x) for x in world]
    def out(s,i,op,clock,delta):
        rr=delta if delta is not None else s.th[s.slots[0]].read()
        loc,world=s.pose(rr)
        return {"step":i,"op":op,"clock":clock,"slots":list(s.slots),"threads":[t.line() for t in s.th],"locals":loc,"world":world,
          "root_read":TJ(rr),"delta":TJ(delta) if delta is not None else None,"object":{"euler":list(s.euler),"position":list(s.pos)}}
    def step(s,i,st):
        op=st["op"]; th=s.th[st["thread"]] if "thread" in st else None
        if op=="step_ms":
            ms=st["ms"]; std=min(max((ms*256)//125,64),450); ad=min(max((std*100)>>8,-0x7fff),0x7fff)
            s.th[s.slots[0]].write(ID)
            for sid in list(s.slots): s.th[sid].advance(ad)
            s.sort(); t0=s.th[s.slots[0]]; rd=t0.read()
            O=wt(from_euler(*s.euler),s.pos); s.pos=tpoint(O,rd[2]); e=to_euler(rd)
            s.euler=[i16(s.euler[k]+e[k]) for k in range(3)]
            t0.write(ID)
            return s.out(i,op,{"elapsed_ms":ms,"sim_tick_delta":std,"anim_delta":ad},rd)
        if op=="advance": th.advance(st["delta"])
        elif op=="set_sequence": th.set_seq(st["seq"],st.get("frame",0),st.get("acc",0))
        elif op=="seek": th.seek(st["seq"],st["pos"])
        elif op=="request": th.request(st["seq"],st.get("frame",-1),1 if st.get("stop_on_arrival",False) else 0)
        elif op=="set_rate": th.set_rate(st["rate"])
        elif op=="drop_request": th.scan=-1; th.tgt=[-1,-1,0]; th.flags=1
        elif op=="add_thread": s.add(st["seq"])
        elif op=="write_root": th.write(wt(from_euler(*st["euler"]),st["t"]))
        return s.out(i,op,None,None)

def run(path):
    sc=json.load(open(path)); d=os.path.dirname(path)
    A=Asset(json.load(open(os.path.join(d,sc["asset"]))))
    sim=Sim(A,sc["setup"]); lines=[sim.out(0,"setup",None,None)]
    for i,st in enumerate(sc["steps"]): lines.append(sim.step(i+1,st))
    return lines
if __name__=="__main__":
    root=sys.argv[1]; bad=0
    for f in sorted(os.listdir(root+"/scenarios")):
        name=f[:-5]; got=run(root+"/scenarios/"+f)
        exp=[json.loads(l) for l in open(root+"/traces/"+name+".jsonl")]
        ok=len(got)==len(exp)
        for a,b in zip(got,exp):
            if a!=b:
                ok=False
                for k in a:
                    if a[k]!=b.get(k): print(name,"step",a["step"],k,"\n  py:",json.dumps(a[k])[:300],"\n  rs:",json.dumps(b.get(k))[:300]); break
                break
        print(("OK  " if ok else "BAD ")+name); bad+=not ok
    sys.exit(1 if bad else 0)
